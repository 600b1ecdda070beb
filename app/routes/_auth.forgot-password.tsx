import { Heading, Link as ThemeLink, Text } from "@radix-ui/themes";
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { ForgotPasswordForm, PASSWORD_RESET_TOAST, type ForgotPasswordActionData } from "#app/components/auth/forgot-password";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { refuseWhileImpersonating } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { fieldErrors, forgotPasswordSchema, resetPasswordSchema } from "#domain/identity/credentials";
import { isDomainError } from "#domain/shared/domain-error";

export const meta: MetaFunction = () => [{ title: "Forgot Your Password | DocuChat" }];

/**
 * POST /forgot-password: intent=request mails a code (the same answer whether
 * or not the account exists); intent=reset sets the new password. The login
 * page's popup posts here with a script; the page below is the no-JS fallback.
 */
export async function action({ request }: ActionFunctionArgs) {
  await refuseWhileImpersonating(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const { identity } = await getServices();
  const ctx = getRequestContext(request);
  const intent = formData.get("intent") === "reset" ? "reset" : "request";
  const username = String(formData.get("username") ?? "").trim();
  const byScript = formData.get("mode") === "script";
  const failure = (status: number, fields: Partial<Record<"username" | "password" | "code", string>>, formError?: string) =>
    data<ForgotPasswordActionData>({ intent, ok: false, username, fieldErrors: fields, formError }, { status });

  if (intent === "request") {
    const parsed = forgotPasswordSchema.safeParse({ username });
    if (!parsed.success) return failure(400, fieldErrors(parsed.error));
    try {
      await identity.requestPasswordReset(parsed.data, ctx);
    } catch (error) {
      if (isDomainError(error)) return failure(error.code === "RATE_LIMITED" ? 429 : 400, {}, error.message);
      throw error;
    }
    return data<ForgotPasswordActionData>({ intent, ok: true, username: parsed.data.username, sentAt: Date.now() });
  }

  const parsed = resetPasswordSchema.safeParse({
    username,
    // The six boxes post a joined hidden value; the no-JS page posts a text field of the same name.
    code: formData.getAll("code").map(String).join("").trim(),
    password: String(formData.get("password") ?? ""),
  });
  if (!parsed.success) return failure(400, fieldErrors(parsed.error));
  try {
    await identity.resetPassword(parsed.data, ctx);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const field = error.field === "password" ? { password: error.message } : {};
    return failure(error.code === "RATE_LIMITED" ? 429 : 400, field, error.field === "password" ? undefined : error.message);
  }
  if (byScript) return data<ForgotPasswordActionData>({ intent, ok: true });
  return redirectWithToast("/login", { type: "success", message: PASSWORD_RESET_TOAST });
}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Heading as="h1" size="7" mb="2">
        Forgot Your Password
      </Heading>
      <Text as="p" color="gray" size="3" mb="4">
        Reset it with a 6-digit code sent to your email address.
      </Text>
      <ForgotPasswordForm serverData={actionData ?? null} />
      <Text as="p" size="2" align="center" mt="5" color="gray">
        <ThemeLink asChild weight="medium">
          <Link to="/login">Back to Login</Link>
        </ThemeLink>
      </Text>
    </>
  );
}
