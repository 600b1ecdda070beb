import { createCookie } from "@remix-run/node";
import { getServices } from "./services.server";

/**
 * "Confirm your password" before revealing a saved API key: a signed,
 * httpOnly cookie naming the user and when they confirmed, valid 5 minutes.
 */
let cookie: ReturnType<typeof createCookie> | undefined;

async function reauthCookie() {
  if (!cookie) {
    const { config } = await getServices();
    cookie = createCookie("__reauth", { httpOnly: true, sameSite: "strict", path: "/", secure: config.cookieSecure, secrets: [config.appSecret], maxAge: 5 * 60 });
  }
  return cookie;
}

export async function reauthenticatedAt(request: Request, userId: string): Promise<Date | null> {
  const value: unknown = await (await reauthCookie()).parse(request.headers.get("Cookie"));
  if (typeof value !== "object" || value === null) return null;
  const { u, t } = value as { u?: unknown; t?: unknown };
  return u === userId && typeof t === "number" ? new Date(t) : null;
}

export async function reauthHeader(userId: string, at: Date): Promise<string> {
  return (await reauthCookie()).serialize({ u: userId, t: at.getTime() });
}
