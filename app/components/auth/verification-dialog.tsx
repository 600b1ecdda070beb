import { Button, Callout, Dialog, Flex, Text } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon, MailIcon } from "#app/components/icons";
import { CodeInput, emptyCode } from "#app/components/auth/code-input";
import { useToast } from "#app/components/toast";

export const RESEND_SECONDS = 30;

/** What the login and sign-up actions answer to `intent=resend|confirm` (a confirm that works redirects). */
export type VerificationActionData =
  | { intent: "resend"; ok: true; sentAt: number; username: string }
  | { intent: "resend" | "confirm"; ok: false; error: string; code?: string; retryAfterSeconds?: number; username: string };

function useCountdown(startedAt: number | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (startedAt === null) return;
    setNow(Date.now());
    const id = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(id);
  }, [startedAt]);
  if (startedAt === null) return 0;
  return Math.max(0, Math.ceil(RESEND_SECONDS - (now - startedAt) / 1000));
}

/**
 * 'Complete Signup' and 'Pending Verification' (spec 000 §4): optionally a
 * first step that requests a code, then six boxes, a 30-second resend timer
 * and Confirm. A confirm that succeeds redirects (the session is started by
 * the route's action).
 */
export function VerificationDialog({
  open,
  onOpenChange,
  title,
  username,
  destination,
  action,
  startWith,
  codeSentAt,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  username: string;
  /** Where the code went, e.g. the email address, for the description. */
  destination?: string;
  /** The route action that handles intent=resend/confirm. */
  action: string;
  /** 'request': first ask for a code (login of an unconfirmed user); 'code': a code was just sent. */
  startWith: "request" | "code";
  codeSentAt?: number | null;
}) {
  const resend = useFetcher<VerificationActionData>({ key: `resend-${username}` });
  const confirm = useFetcher<VerificationActionData>({ key: `confirm-${username}` });
  const toast = useToast();
  const [step, setStep] = useState<"request" | "code">(startWith);
  const [sentAt, setSentAt] = useState<number | null>(startWith === "code" ? (codeSentAt ?? Date.now()) : null);
  const [digits, setDigits] = useState(emptyCode);
  const [flagEmpty, setFlagEmpty] = useState(false);
  const secondsLeft = useCountdown(sentAt);
  const titleId = useId();
  const codeLabelId = useId();

  // Reset when (re)opened for a user.
  useEffect(() => {
    if (!open) return;
    setStep(startWith);
    setSentAt(startWith === "code" ? (codeSentAt ?? Date.now()) : null);
    setDigits(emptyCode());
    setFlagEmpty(false);
  }, [open, startWith, codeSentAt, username]);

  // A resend answered: go to (or stay on) the code step, restart the timer, clear the boxes.
  const handledResend = useRef<unknown>(null);
  const absorbedResend = useRef<unknown>(null);
  useEffect(() => {
    if (resend.state !== "idle" || !resend.data || resend.data === handledResend.current) return;
    handledResend.current = resend.data;
    if (resend.data.ok) {
      setStep("code");
      setSentAt(Date.now());
      setDigits(emptyCode());
      setFlagEmpty(false);
      toast.push({ type: "success", message: "Verification code has been sent successfully" });
    } else if (resend.data.code === "RATE_LIMITED" && step === "request") {
      // A code went out moments ago (e.g. at sign-up): it is still valid, so let them enter it, and
      // count down what the server says is left of the wait rather than showing it as an error.
      absorbedResend.current = resend.data;
      const left = resend.data.retryAfterSeconds ?? RESEND_SECONDS;
      setStep("code");
      setSentAt(Date.now() - (RESEND_SECONDS - Math.min(RESEND_SECONDS, left)) * 1000);
    }
  }, [resend.state, resend.data, toast, step]);

  const resendForm = useRef<HTMLFormElement>(null);
  const requestCode = () => {
    if (resendForm.current) resend.submit(resendForm.current, { method: "post", action });
  };

  const onConfirmSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (digits.some((d) => d === "")) {
      event.preventDefault();
      setFlagEmpty(true);
    }
  };

  const resendError = resend.state === "idle" && resend.data && !resend.data.ok && resend.data !== absorbedResend.current ? resend.data.error : null;
  const confirmError = confirm.state === "idle" && confirm.data && !confirm.data.ok ? confirm.data.error : null;
  const error = confirmError ?? resendError;
  const busy = confirm.state !== "idle";

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="460px" aria-labelledby={titleId} className="dc-verify" data-testid="verification-dialog">
        <Flex direction="column" align="center" gap="2" mb="3">
          <span className="dc-verify__badge">
            <MailIcon size={26} />
          </span>
          <Dialog.Title id={titleId} size="6" mb="0" align="center">
            {title}
          </Dialog.Title>
          <Dialog.Description size="2" color="gray" align="center">
            {step === "request"
              ? `The account ${username} is not verified yet. Select Confirm and we will email a 6-digit verification code.`
              : `Enter the 6-digit code we sent ${destination ? `to ${destination}` : "to your email address"}.`}
          </Dialog.Description>
        </Flex>

        <resend.Form ref={resendForm} method="post" action={action} hidden>
          <CsrfInput />
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="username" value={username} />
        </resend.Form>

        {error ? (
          <Callout.Root color="red" size="1" mb="3" role="alert" data-testid="verification-error">
            <Callout.Icon>
              <AlertIcon size={16} />
            </Callout.Icon>
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        ) : null}

        {step === "request" ? (
          <Flex gap="3" justify="end" mt="4">
            <Dialog.Close>
              <Button variant="soft" color="gray" size="3" type="button">
                Cancel
              </Button>
            </Dialog.Close>
            <Button size="3" type="button" loading={resend.state !== "idle"} onClick={requestCode}>
              Confirm
            </Button>
          </Flex>
        ) : (
          <confirm.Form method="post" action={action} onSubmit={onConfirmSubmit} noValidate>
            <CsrfInput />
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="username" value={username} />
            <Text as="p" id={codeLabelId} size="2" weight="medium" align="center" mb="2">
              Verification code
            </Text>
            <CodeInput value={digits} onChange={(next) => setDigits(next)} flagEmpty={flagEmpty} labelledBy={codeLabelId} />
            <Flex justify="center" align="center" mt="3" minHeight="32px">
              {secondsLeft > 0 ? (
                <Text size="2" color="gray" aria-live="polite" data-testid="resend-timer">
                  Resend code in 0:{String(secondsLeft).padStart(2, "0")}
                </Text>
              ) : (
                <Button type="button" variant="ghost" size="2" onClick={requestCode} loading={resend.state !== "idle"}>
                  Resend Code
                </Button>
              )}
            </Flex>
            <Flex gap="3" justify="end" mt="4">
              <Dialog.Close>
                <Button variant="soft" color="gray" size="3" type="button">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button size="3" type="submit" loading={busy}>
                Confirm
              </Button>
            </Flex>
          </confirm.Form>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
