import { type Cookie, createCookie } from "@remix-run/node";
import { getServices } from "./services.server";

/** Cookies are created once the configuration (secret, Secure flag) is known. */
let cookies: Promise<{ session: Cookie; toast: Cookie; csrf: Cookie }> | undefined;

export function getCookies() {
  cookies ??= getServices().then(({ config }) => {
    const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: config.cookieSecure, secrets: [config.appSecret] };
    return {
      session: createCookie("__session", { ...base, maxAge: 30 * 24 * 60 * 60 }),
      toast: createCookie("__toast", { ...base, maxAge: 60 }),
      csrf: createCookie("__csrf", base),
    };
  });
  return cookies;
}
