import { confirmSignupSchema, usernameSchema } from "#domain/identity/credentials";
import { ResendTooSoon } from "#domain/identity/user";
import { isDomainError } from "#domain/shared/domain-error";
import type { VerificationActionData } from "#app/components/auth/verification-dialog";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { startUserSession } from "#app/utils/session.server";

/** The part of the login and sign-up actions behind the verification dialog (intent=resend|confirm). */
export async function handleVerificationIntent(
  request: Request,
  formData: FormData,
  intent: "resend" | "confirm",
  onConfirmed: { redirectTo: string; toast: { type: "success"; message: string } },
): Promise<VerificationActionData | Response> {
  const services = await getServices();
  const ctx = await getRequestContext(request);
  const username = String(formData.get("username") ?? "").trim();
  try {
    if (intent === "resend") {
      const parsed = usernameSchema.safeParse(username);
      if (!parsed.success) return { intent, ok: false, error: parsed.error.issues[0]?.message ?? "Something went wrong", username };
      await services.identity.resendVerificationCode({ username: parsed.data }, ctx);
      return { intent, ok: true, sentAt: Date.now(), username };
    }
    const parsed = confirmSignupSchema.safeParse({ username, code: String(formData.get("code") ?? "").trim() });
    if (!parsed.success) return { intent, ok: false, error: parsed.error.issues[0]?.message ?? "Enter the 6-digit code", username };
    const { userId } = await services.identity.confirmSignup(parsed.data, ctx);
    return await startUserSession(request, userId, onConfirmed);
  } catch (error) {
    if (error instanceof ResendTooSoon) {
      return { intent, ok: false, error: error.message, code: error.code, retryAfterSeconds: error.retryAfterSeconds, username };
    }
    if (isDomainError(error)) return { intent, ok: false, error: error.message, code: error.code, username };
    throw error;
  }
}
