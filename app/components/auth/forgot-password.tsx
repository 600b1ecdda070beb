import { Button, Callout, Dialog, Flex, Text } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { CodeInput, emptyCode } from "#app/components/auth/code-input";
import { RESEND_SECONDS } from "#app/components/auth/verification-dialog";
import { Field, PasswordField } from "#app/components/auth/field";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon } from "#app/components/icons";
import { useToast } from "#app/components/toast";
import { useHydrated } from "#app/components/use-hydrated";
import { newPasswordSchema, usernameSchema } from "#domain/identity/credentials";

export const FORGOT_PASSWORD_ACTION = "/forgot-password";
export const PASSWORD_RESET_TOAST = "Password reset successfully!";

/** What POST /forgot-password answers a script (a form without JavaScript gets a redirect or the page). */
export type ForgotPasswordActionData =
  | { intent: "request"; ok: true; username: string; sentAt: number }
  | { intent: "reset"; ok: true }
  | { intent: "request" | "reset"; ok: false; username: string; fieldErrors: Partial<Record<"username" | "password" | "code", string>>; formError?: string };

function useSecondsLeft(sentAt: number | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (sentAt === null) return;
    setNow(Date.now());
    const id = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(id);
  }, [sentAt]);
  return sentAt === null ? 0 : Math.max(0, Math.ceil(RESEND_SECONDS - (now - sentAt) / 1000));
}

const firstError = (schema: typeof usernameSchema | typeof newPasswordSchema, value: string) => {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
};

/**
 * 'Forgot Your Password' (spec 000 §4): the username and Confirm request a
 * code; then six one-digit boxes, the new password and Update. The same
 * schemas check the fields here and in the action.
 */
export function ForgotPasswordForm({
  initialUsername = "",
  serverData,
  onDone,
  cancel,
}: {
  /** A Cancel control shown beside the submit button (the dialog's close). */
  cancel?: React.ReactNode;
  initialUsername?: string;
  /** The action's answer when the page itself was posted (no JavaScript). */
  serverData?: ForgotPasswordActionData | null;
  onDone?: () => void;
}) {
  const fetcher = useFetcher<ForgotPasswordActionData>({ key: "forgot-password" });
  const hydrated = useHydrated();
  const toast = useToast();
  const data = fetcher.data ?? serverData ?? null;
  const codeSent = data && data.intent === "request" && data.ok ? data : null;
  const [step, setStep] = useState<"username" | "code">(serverData?.intent === "reset" || codeSent ? "code" : "username");
  const [username, setUsername] = useState(initialUsername || (data && "username" in data ? data.username : ""));
  const [password, setPassword] = useState("");
  const [digits, setDigits] = useState(emptyCode);
  const [touched, setTouched] = useState({ username: false, password: false });
  const [flagEmpty, setFlagEmpty] = useState(false);
  const [sentAt, setSentAt] = useState<number | null>(null);
  const secondsLeft = useSecondsLeft(sentAt);
  const codeLabelId = useId();

  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === handled.current) return;
    handled.current = fetcher.data;
    const answer = fetcher.data;
    if (answer.intent === "request" && answer.ok) {
      setStep("code");
      setSentAt(Date.now());
      setDigits(emptyCode());
      setFlagEmpty(false);
      toast.push({ type: "success", message: "Verification code has been sent successfully" });
    } else if (answer.intent === "reset" && answer.ok) {
      toast.push({ type: "success", message: PASSWORD_RESET_TOAST });
      onDone?.();
    }
  }, [fetcher.state, fetcher.data, toast, onDone]);

  const failed = data && !data.ok ? data : null;
  const usernameError = (touched.username ? firstError(usernameSchema, username) : null) ?? failed?.fieldErrors.username ?? null;
  const passwordError = (touched.password ? firstError(newPasswordSchema, password) : null) ?? failed?.fieldErrors.password ?? null;
  const formError = failed ? (failed.formError ?? failed.fieldErrors.code ?? null) : null;
  const busy = fetcher.state !== "idle";

  const onRequest = (event: FormEvent<HTMLFormElement>) => {
    setTouched((t) => ({ ...t, username: true }));
    if (firstError(usernameSchema, username)) event.preventDefault();
  };
  const onReset = (event: FormEvent<HTMLFormElement>) => {
    setTouched({ username: true, password: true });
    const emptyBox = digits.some((d) => d === "");
    if (emptyBox) setFlagEmpty(true);
    if (emptyBox || firstError(newPasswordSchema, password)) event.preventDefault();
  };

  if (step === "username") {
    return (
      <fetcher.Form method="post" action={FORGOT_PASSWORD_ACTION} noValidate onSubmit={onRequest} className="dc-form" aria-label="Request a password reset code">
        <CsrfInput />
        <input type="hidden" name="intent" value="request" />
        {hydrated ? <input type="hidden" name="mode" value="script" /> : null}
        {formError ? <FormError message={formError} /> : null}
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.currentTarget.value)}
          onBlur={() => setTouched((t) => ({ ...t, username: true }))}
          error={usernameError}
        />
        <Text as="p" size="2" color="gray">
          If the account exists, we will email a 6-digit code to its address.
        </Text>
        <Flex justify="end" gap="3">
          {cancel}
          <Button type="submit" size="3" loading={busy}>
            Confirm
          </Button>
        </Flex>
      </fetcher.Form>
    );
  }

  return (
    <>
      <fetcher.Form method="post" action={FORGOT_PASSWORD_ACTION} noValidate onSubmit={onReset} className="dc-form" aria-label="Set a new password">
        <CsrfInput />
        <input type="hidden" name="intent" value="reset" />
        <input type="hidden" name="username" value={username} />
        {hydrated ? <input type="hidden" name="mode" value="script" /> : null}
        {formError ? <FormError message={formError} /> : null}
        <Text as="p" id={codeLabelId} size="2" weight="medium">
          Verification code
        </Text>
        <CodeInput value={digits} onChange={setDigits} flagEmpty={flagEmpty} labelledBy={codeLabelId} />
        {hydrated ? null : (
          // Without JavaScript the six boxes cannot join themselves: one field takes the code.
          <Field label="Code (6 digits)" name="code" inputMode="numeric" autoComplete="one-time-code" />
        )}
        <PasswordField
          label="New password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          onBlur={() => setTouched((t) => ({ ...t, password: true }))}
          error={passwordError}
        />
        <Flex justify="between" align="center" gap="3">
          {secondsLeft > 0 ? (
            <Text size="2" color="gray" aria-live="polite" data-testid="reset-resend-timer">
              Resend code in 0:{String(secondsLeft).padStart(2, "0")}
            </Text>
          ) : (
            <Button
              type="button"
              variant="ghost"
              size="2"
              disabled={busy}
              onClick={() =>
                fetcher.submit(
                  { intent: "request", username, csrf: csrfFromForms(), mode: "script" },
                  { method: "post", action: FORGOT_PASSWORD_ACTION },
                )
              }
            >
              Resend Code
            </Button>
          )}
          <Flex gap="3">
            {cancel}
            <Button type="submit" size="3" loading={busy}>
              Update
            </Button>
          </Flex>
        </Flex>
      </fetcher.Form>
    </>
  );
}

/** The CSRF token rendered into this page's forms (the resend button submits without a form of its own). */
function csrfFromForms(): string {
  return document.querySelector<HTMLInputElement>('input[name="csrf"]')?.value ?? "";
}

function FormError({ message }: { message: string }) {
  return (
    <Callout.Root color="red" size="1" role="alert" data-testid="forgot-password-error">
      <Callout.Icon>
        <AlertIcon size={16} />
      </Callout.Icon>
      <Callout.Text>{message}</Callout.Text>
    </Callout.Root>
  );
}

/** The popup on /login. */
export function ForgotPasswordDialog({
  open,
  onOpenChange,
  initialUsername,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialUsername?: string;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="460px" data-testid="forgot-password-dialog">
        <Dialog.Title>Forgot Your Password</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Reset it with a 6-digit code sent to your email address.
        </Dialog.Description>
        {open ? (
          <ForgotPasswordForm
            initialUsername={initialUsername}
            onDone={() => onOpenChange(false)}
            cancel={
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray" size="3">
                  Cancel
                </Button>
              </Dialog.Close>
            }
          />
        ) : null}
      </Dialog.Content>
    </Dialog.Root>
  );
}
