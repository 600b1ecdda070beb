import type { DevMailbox } from "#application/ports/mailer";
import { IdentityService } from "#application/identity/identity-service";
import { ProfileService } from "#application/identity/profile-service";
import { TOKENS } from "#application/tokens";
import type { AppRuntime } from "#infrastructure/container";
import { getCookies } from "#app/utils/cookies.server";

/**
 * A user who signed up with the mailed code, finished onboarding and signed
 * in, and the Cookie header their browser would send: for calling a route's
 * loader or action directly on the embedded runtime. With `csrf`, the CSRF
 * cookie "csrf-token" too (what a mutating route checks a form's token against).
 */
export async function signedInUser(
  runtime: AppRuntime,
  username: string,
  options: { csrf?: boolean; requestId?: string } = {},
): Promise<{ id: string; cookie: string }> {
  const ctx = { requestId: options.requestId ?? `signed-in-${username}`, clientAddress: "127.0.0.1" };
  const identity = runtime.container.get(IdentityService);
  const email = `${username}@example.com`;
  const { userId } = await identity.register({ username, email, password: "Secret12!" }, ctx);
  const code = /\d{6}/.exec((await runtime.get<DevMailbox>(TOKENS.DevMailbox).list(1))[0]!.text)![0];
  await identity.confirmSignup({ username, code }, ctx);
  await runtime.container
    .get(ProfileService)
    .completeOnboarding(userId, { firstName: username, lastName: "Test", email, occupation: "Engineer", language: "" }, { ...ctx, actorId: userId });
  const { token } = await identity.startSession(userId, ctx);
  const { session, csrf } = await getCookies();
  const cookies = [await session.serialize(token), ...(options.csrf ? [await csrf.serialize("csrf-token")] : [])];
  return { id: userId, cookie: cookies.map((c) => c.split(";")[0]).join("; ") };
}
