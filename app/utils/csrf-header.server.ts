import { timingSafeEqual } from "node:crypto";
import { getCookies } from "./cookies.server";

export const CSRF_HEADER = "X-CSRF-Token";

/**
 * CSRF check for JSON/fetch API routes that do not post forms: the request must
 * carry the header X-CSRF-Token equal to the signed __csrf cookie's token (the
 * root loader hands the token to the page). A cross-site page can neither read
 * the token nor set custom headers on a credentialed cross-origin request.
 */
export async function validateCsrfHeader(request: Request): Promise<void> {
  const { csrf } = await getCookies();
  const expected = await csrf.parse(request.headers.get("Cookie"));
  const given = request.headers.get(CSRF_HEADER);
  const ok =
    typeof expected === "string" &&
    typeof given === "string" &&
    expected.length > 0 &&
    expected.length === given.length &&
    timingSafeEqual(Buffer.from(expected), Buffer.from(given));
  if (!ok) {
    throw Response.json(
      { code: "CSRF", message: "Your request could not be verified. Reload the page and try again." },
      { status: 403 },
    );
  }
}
