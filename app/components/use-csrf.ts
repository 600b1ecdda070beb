import { useRouteLoaderData } from "@remix-run/react";

/** The root loader's CSRF token, for fetch headers and hand-built forms. */
export const useCsrfToken = () => useRouteLoaderData<{ csrfToken?: string }>("root")?.csrfToken ?? "";
