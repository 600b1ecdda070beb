export const LATER_RELEASE = "Available in a later release";
