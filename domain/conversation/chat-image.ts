/**
 * Images a user attaches to a chat question (spec 001 §2 Chat input: upload,
 * paste, drop or link; images only). The bytes decide what an image is, never
 * its name or the Content-Type a browser or a remote server claims.
 */

export const MAX_IMAGES_PER_QUESTION = 5;
/** Large enough for a phone photo or a page capture, small enough to hand to a vision model. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export type ChatImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);

/** The image type its bytes declare, or null for anything that is not a PNG, JPEG, GIF or WebP image. */
export function chatImageType(bytes: Uint8Array): ChatImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "image/gif";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

export const IMAGE_TOO_LARGE = `Images can be at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB.`;
export const NOT_AN_IMAGE = "Only PNG, JPEG, GIF or WebP images can be attached.";

/** Why an attached file cannot be used, in words the user can act on; null when it can. */
export function chatImageProblem(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return "The image is empty.";
  if (bytes.length > MAX_IMAGE_BYTES) return IMAGE_TOO_LARGE;
  if (!chatImageType(bytes)) return NOT_AN_IMAGE;
  return null;
}

/** Where an attached image is kept: under its owner (so an account purge removes it) and its conversation. */
export const chatImageBlobKey = (ownerId: string, conversationId: string, mediaId: string) => `media/${ownerId}/${conversationId}/${mediaId}`;
