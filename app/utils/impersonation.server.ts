import { type Cookie, createCookie } from "@remix-run/node";
import { getServices } from "./services.server";

/**
 * The admin's impersonation session (decision 101): a second cookie beside
 * the admin's own session, holding the token of a server-side session that
 * names both people. It only counts together with that admin's own session,
 * so ending it (or its expiry) leaves the admin signed in as themself.
 */
let cookie: Promise<Cookie> | undefined;

function impersonationCookie(): Promise<Cookie> {
  cookie ??= getServices().then(({ config }) =>
    createCookie("__impersonation", { httpOnly: true, sameSite: "lax", path: "/", secure: config.cookieSecure, secrets: [config.appSecret], maxAge: 3600 }),
  );
  return cookie;
}

export async function impersonationToken(request: Request): Promise<string | null> {
  const token = await (await impersonationCookie()).parse(request.headers.get("Cookie"));
  return typeof token === "string" && token ? token : null;
}

export async function impersonationCookieHeader(token: string, deadline: string): Promise<string> {
  return (await impersonationCookie()).serialize(token, { expires: new Date(deadline) });
}

export async function clearImpersonationCookie(): Promise<string> {
  return (await impersonationCookie()).serialize("", { maxAge: 0 });
}
