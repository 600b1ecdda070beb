import { redirect } from "@remix-run/node";
import type { CurrentUser as AccountUser } from "#application/identity/identity-queries";
import { ACCOUNT_PENDING_DELETE_MESSAGE, type LoginMethod } from "#domain/identity/user";
import { getCookies } from "./cookies.server";
import { impersonationToken } from "./impersonation.server";
import { getRequestContext, rememberImpersonation } from "./request-context.server";
import { getServices } from "./services.server";
import { redirectWithToast, type Toast, toastHeader } from "./toast.server";

/** The signed-in user; while an admin impersonates, the user acted as, with the impersonation (decision 101). */
export type CurrentUser = AccountUser & { impersonation: { id: string; adminId: string; deadline: string } | null };

async function sessionToken(request: Request): Promise<string | null> {
  const { session } = await getCookies();
  const token = await session.parse(request.headers.get("Cookie"));
  return typeof token === "string" ? token : null;
}

/** Resolved once per request even when several loaders ask. */
const resolved = new WeakMap<Request, Promise<CurrentUser | null>>();

export function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = (async () => {
      const token = await sessionToken(request);
      if (!token) return null;
      const { identity, identityQueries, administration, impersonations } = await getServices();
      const session = await identity.resolveSession(token);
      if (!session) return null;
      const own = await identityQueries.currentUser(session.userId, null);
      if (!own) return null;
      // The admin role is the administration's (events, decision 100), not a list in the configuration.
      if (!(await administration.isAdmin(own.id))) return { ...own, impersonation: null };
      const admin: CurrentUser = { ...own, role: "admin", impersonation: null };
      const impersonationCookie = await impersonationToken(request);
      if (!impersonationCookie) return admin;
      // The server's own deadline check, on every request: past it the impersonation ends here and the admin is themself again.
      const resolved = await impersonations.resolve(impersonationCookie, own.id);
      if (resolved.state !== "active") return admin;
      const user = await identityQueries.currentUser(resolved.session.userId, own.id);
      if (!user) return admin;
      rememberImpersonation(request, { userId: user.id, impersonatorId: own.id, impersonationId: resolved.session.impersonationId });
      await refuseChangesWhileImpersonating(request);
      return { ...user, role: "impersonate", impersonation: { id: resolved.session.impersonationId, adminId: own.id, deadline: resolved.session.deadline } };
    })();
    resolved.set(request, pending);
  }
  return pending;
}

/**
 * Requests that change nothing, or end the impersonation: the only non-GET requests an impersonating admin makes.
 * A compile keeps nothing (its files are removed once answered): the chat's LaTeX answers show as the user sees them.
 */
const READ_ONLY_POSTS = new Set(["/admin/exit", "/documents/download-zip", "/api/convert"]);
export const IMPERSONATION_READ_ONLY_MESSAGE = "An admin acting as this user cannot change anything.";

/**
 * Impersonation is read-only on the server (ARCHITECTURE §8): every request
 * that could change something is refused before its action runs, whatever
 * the route (the aggregate's guard refuses the command too). APIs answer 403
 * with the code; pages go back with the message.
 */
async function refuseChangesWhileImpersonating(request: Request): Promise<void> {
  if (request.method === "GET" || request.method === "HEAD") return;
  const { pathname } = new URL(request.url);
  if (READ_ONLY_POSTS.has(pathname)) return;
  if (pathname.startsWith("/api/")) {
    throw Response.json({ code: "IMPERSONATION_READ_ONLY", message: IMPERSONATION_READ_ONLY_MESSAGE }, { status: 403 });
  }
  throw await redirectWithToast(safeRedirect(pathname), { type: "error", message: IMPERSONATION_READ_ONLY_MESSAGE });
}

/** Only same-site paths: an attacker's `redirectTo=//evil.example` must not leave the app. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

/**
 * Guards protected pages: the root goes to /login; other pages go to /login
 * with the way back remembered and the spec's toast.
 */
export async function requireUser(
  request: Request,
  options: { allowIncompleteOnboarding?: boolean } = {},
): Promise<CurrentUser> {
  const user = await getCurrentUser(request);
  const url = new URL(request.url);
  if (user) {
    // Spec 000 §2 / 001 §2: until onboarding is complete every protected page sends the user there.
    if (!user.isOnboarded && !options.allowIncompleteOnboarding) {
      throw await redirectWithToast("/onboarding", { type: "info", message: "Please complete onboarding" });
    }
    return user;
  }
  if (url.pathname === "/") throw redirect("/login");
  const back = `${url.pathname}${url.search}`;
  throw await redirectWithToast(`/login?redirectTo=${encodeURIComponent(back)}`, {
    type: "error",
    message: "Log in to unlock more features!",
  });
}

export const PENDING_DELETE_MESSAGE = ACCOUNT_PENDING_DELETE_MESSAGE;

/**
 * For actions that change anything: an account pending deletion may only be
 * retrieved or logged out of (decision 022). Pages stay viewable, read-only.
 * The deciders refuse too; this answers early, before any upload is read.
 */
export async function requireWritableUser(request: Request): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (user.status === "PENDING_DELETE") {
    throw await redirectWithToast(safeRedirect(new URL(request.url).pathname), { type: "error", message: PENDING_DELETE_MESSAGE });
  }
  return user;
}

/**
 * For the routes of visitors who are not signed in (a password reset's mail, an
 * OpenID sign-in's start): they need no user, but an admin impersonating
 * someone is refused there as everywhere (issue 30).
 */
export async function refuseWhileImpersonating(request: Request): Promise<void> {
  await getCurrentUser(request);
}

export async function requireAnonymous(request: Request): Promise<void> {
  const user = await getCurrentUser(request);
  if (user) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo")));
}

export async function startUserSession(
  request: Request,
  userId: string,
  options: { redirectTo?: string | null; toast?: Toast; method?: LoginMethod },
): Promise<Response> {
  const { identity } = await getServices();
  // A session token that existed before login is dropped, not reused (fixation).
  const previous = await sessionToken(request);
  if (previous) await identity.endSession(previous, getRequestContext(request));
  const { token, expiresAt } = await identity.startSession(userId, getRequestContext(request, { actorId: userId }), options.method);
  const { session } = await getCookies();
  const headers = new Headers();
  headers.append("Set-Cookie", await session.serialize(token, { expires: expiresAt }));
  if (options.toast) headers.append("Set-Cookie", await toastHeader(options.toast));
  return redirect(safeRedirect(options.redirectTo), { headers });
}

/** The header that removes the session cookie from this browser. */
export async function clearSessionCookie(): Promise<string> {
  const { session } = await getCookies();
  return session.serialize("", { maxAge: 0 });
}

/** Actions that need a signed-in user: the user, or a redirect to /login. */
export async function requireUserForAction(request: Request): Promise<CurrentUser> {
  const user = await getCurrentUser(request);
  if (!user) throw await redirectWithToast("/login", { type: "error", message: "Log in to unlock more features!" });
  return user;
}

export async function endUserSession(request: Request): Promise<Response> {
  const token = await sessionToken(request);
  const { identity } = await getServices();
  if (token) {
    const user = await getCurrentUser(request);
    await identity.endSession(token, getRequestContext(request, { actorId: user?.id }));
  }
  const { session } = await getCookies();
  const headers = new Headers();
  headers.append("Set-Cookie", await session.serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", await toastHeader({ type: "success", message: "Logged out successfully" }));
  return redirect("/", { headers });
}
