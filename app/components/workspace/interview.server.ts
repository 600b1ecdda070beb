import { createCookie, type Cookie } from "@remix-run/node";
import { getServices } from "#app/utils/services.server";

/** Assessment duration: 1 hour (spec 001 §9). */
export const INTERVIEW_DURATION_MS = 3_600_000;

let cookie: Promise<Cookie> | undefined;

/**
 * The running interview, remembered in a signed httpOnly cookie: which
 * workspace it is and whose. The deadline is not in the cookie: it is the
 * workspace's server-side creation time + 1 hour, so the browser cannot move it.
 */
export function interviewCookie(): Promise<Cookie> {
  cookie ??= getServices().then(({ config }) =>
    createCookie("__interview", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: config.cookieSecure,
      secrets: [config.appSecret],
      maxAge: 7 * 24 * 60 * 60,
    }),
  );
  return cookie;
}

export type InterviewRef = { workspaceId: string; ownerId: string };

export async function readInterview(request: Request, ownerId: string): Promise<InterviewRef | null> {
  const value = (await (await interviewCookie()).parse(request.headers.get("Cookie"))) as unknown;
  if (!value || typeof value !== "object") return null;
  const ref = value as Partial<InterviewRef>;
  if (typeof ref.workspaceId !== "string" || ref.ownerId !== ownerId) return null;
  return { workspaceId: ref.workspaceId, ownerId };
}

/** The offer window from configuration (INTERVIEW_DEADLINE, an ISO date); null when not set or unreadable. */
export function offerDeadline(env: Record<string, string | undefined> = process.env): Date | null {
  const raw = env.INTERVIEW_DEADLINE?.trim();
  if (!raw) return null;
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? null : date;
}
