import { randomBytes, timingSafeEqual } from "node:crypto";
import { getCookies } from "./cookies.server";

export const CSRF_FIELD = "csrf";

/**
 * Double-submit token: a random value in an httpOnly, SameSite=Lax, signed
 * cookie, echoed by every form. A cross-site page can neither read the cookie
 * nor make the browser send it with a POST.
 */
export async function getCsrfToken(request: Request): Promise<{ token: string; headers: Headers }> {
  const { csrf } = await getCookies();
  const existing = await csrf.parse(request.headers.get("Cookie"));
  const headers = new Headers();
  if (typeof existing === "string" && existing.length > 0) return { token: existing, headers };
  const token = randomBytes(24).toString("base64url");
  headers.append("Set-Cookie", await csrf.serialize(token));
  return { token, headers };
}

export async function validateCsrf(formData: FormData, request: Request): Promise<void> {
  const { csrf } = await getCookies();
  const expected = await csrf.parse(request.headers.get("Cookie"));
  const given = formData.get(CSRF_FIELD);
  const ok =
    typeof expected === "string" &&
    typeof given === "string" &&
    expected.length === given.length &&
    timingSafeEqual(Buffer.from(expected), Buffer.from(given));
  if (!ok) {
    throw new Response("The form expired. Reload the page and try again.", { status: 403 });
  }
}
