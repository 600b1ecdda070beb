import { Button, Callout, Flex, Heading, IconButton, Link as ThemeLink, Text } from "@radix-ui/themes";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Field, PasswordField } from "#app/components/auth/field";
import { GoogleSignIn } from "#app/components/auth/google-button";
import { NoJsVerification } from "#app/components/auth/no-js-verification";
import { handleVerificationIntent } from "#app/components/auth/verification-actions.server";
import { VerificationDialog, type VerificationActionData } from "#app/components/auth/verification-dialog";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon, CloseIcon } from "#app/components/icons";
import { useHydrated } from "#app/components/use-hydrated";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { getCurrentUser, refuseWhileImpersonating, requireAnonymous, safeRedirect, startUserSession } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { ForgotPasswordDialog } from "#app/components/auth/forgot-password";
import { fieldErrors, loginSchema, usernameSchema } from "#domain/identity/credentials";
import { isDomainError } from "#domain/shared/domain-error";

export const meta: MetaFunction = () => [{ title: "Login | DocuChat" }];

type FieldName = "username" | "password";
const LOGGED_IN = { type: "success" as const, message: "Logged In Successfully" };

type LoginActionData =
  | VerificationActionData
  | {
      intent: "login";
      ok: false;
      fieldErrors: Partial<Record<FieldName, string>>;
      formError?: string;
      unconfirmed?: boolean;
      username: string;
    };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs): Promise<LoginActionData | Response> {
  await refuseWhileImpersonating(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const redirectTo = safeRedirect(formData.get("redirectTo") ?? new URL(request.url).searchParams.get("redirectTo"));
  const intent = String(formData.get("intent") ?? "login");
  if (intent === "resend" || intent === "confirm") {
    return handleVerificationIntent(request, formData, intent, { redirectTo, toast: LOGGED_IN });
  }
  // Another tab signed in meanwhile (spec 000 §8): keep that session, say so, and go on.
  if (await getCurrentUser(request)) {
    return redirectWithToast(redirectTo, { type: "info", message: "There is already a signed in user." });
  }

  const username = String(formData.get("username") ?? "");
  const parsed = loginSchema.safeParse({ username, password: String(formData.get("password") ?? "") });
  if (!parsed.success) return { intent: "login", ok: false, fieldErrors: fieldErrors(parsed.error), username };
  try {
    const services = await getServices();
    const { userId } = await services.identity.login(parsed.data, await getRequestContext(request));
    return await startUserSession(request, userId, { redirectTo, toast: LOGGED_IN });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return {
      intent: "login",
      ok: false,
      fieldErrors: {},
      formError: error.message,
      unconfirmed: error.code === "USER_NOT_CONFIRMED",
      username: parsed.data.username,
    };
  }
}

const AUTOFILL_CHECKS_MS = [500, 1000, 2000];

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const loginResult = actionData && actionData.intent === "login" ? actionData : null;

  const [values, setValues] = useState<Record<FieldName, string>>({ username: loginResult?.username ?? "", password: "" });
  const [touched, setTouched] = useState<Record<FieldName, boolean>>({ username: false, password: false });
  const [banner, setBanner] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [verifyFor, setVerifyFor] = useState<string | null>(null);
  const [autofilled, setAutofilled] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // What the person typed: the autofill checks run from a closure made at mount, so they read this, not stale state.
  const typedUsername = useRef(values.username);

  useEffect(() => {
    if (!loginResult) return;
    setServerErrors(loginResult.fieldErrors);
    setBanner(loginResult.formError ?? null);
    if (loginResult.unconfirmed) setVerifyFor(loginResult.username);
  }, [loginResult]);

  // Browsers fill saved credentials without change events: look at 0.5, 1 and 2 s (spec 000 §9).
  useEffect(() => {
    const timers = AUTOFILL_CHECKS_MS.map((ms) =>
      window.setTimeout(() => {
        const input = usernameRef.current;
        if (!input) return;
        let filled = false;
        try {
          filled = input.matches(":autofill") || input.matches(":-webkit-autofill");
        } catch {
          filled = false;
        }
        if (filled || (input.value && !typedUsername.current)) {
          setAutofilled(true);
          const password = passwordRef.current?.value ?? "";
          setValues((v) => ({ username: v.username || input.value, password: v.password || password }));
        }
      }, ms),
    );
    return () => timers.forEach((t) => window.clearTimeout(t));
    // Only once after mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Without JavaScript the dialog cannot open: the code step renders in the page instead.
  const verification = actionData && (actionData.intent === "resend" || actionData.intent === "confirm") ? actionData : null;
  const noJsUsername = hydrated ? null : loginResult?.unconfirmed ? loginResult.username : (verification?.username ?? null);
  const noJsError = verification && !verification.ok ? verification.error : null;

  const clientError = (field: FieldName): string | null => {
    const result = (field === "username" ? usernameSchema : loginSchema.shape.password).safeParse(values[field]);
    return result.success ? null : (result.error.issues[0]?.message ?? null);
  };
  const errors = {
    username: serverErrors.username ?? clientError("username"),
    password: serverErrors.password ?? clientError("password"),
  };
  const shown = (field: FieldName) => (touched[field] || serverErrors[field] ? errors[field] : null);
  const invalid = values.username.trim() === "" || values.password === "" || Boolean(errors.username || errors.password);
  const disabled = hydrated && invalid && !autofilled;
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === "login";

  const update = (field: FieldName) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    if (field === "username") typedUsername.current = value;
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  };
  const blur = (field: FieldName) => () => setTouched((t) => ({ ...t, [field]: true }));

  return (
    <>
      <Heading as="h1" size="8" mb="1" className="dc-auth__title">
        Welcome Back
      </Heading>
      <Text as="p" color="gray" size="3" mb="5">
        Log in to continue with your documents and workspaces.
      </Text>

      {banner ? (
        <Callout.Root color="red" mb="4" role="alert" className="dc-banner-callout" data-testid="login-error">
          <Callout.Icon>
            <AlertIcon size={16} />
          </Callout.Icon>
          <Callout.Text>{banner}</Callout.Text>
          <IconButton
            type="button"
            size="1"
            variant="ghost"
            color="red"
            className="dc-banner-callout__close"
            aria-label="Dismiss error"
            disabled={verifyFor !== null}
            onClick={() => setBanner(null)}
          >
            <CloseIcon size={14} />
          </IconButton>
        </Callout.Root>
      ) : null}

      {noJsUsername ? (
        <NoJsVerification title="Pending Verification" username={noJsUsername} error={noJsError} redirectTo={redirectTo || undefined} />
      ) : null}

      <Form method="post" noValidate className="dc-form" aria-label="Log in">
        <CsrfInput />
        <input type="hidden" name="intent" value="login" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field
          ref={usernameRef}
          label="Username"
          name="username"
          autoComplete="username"
          placeholder="Your username"
          value={values.username}
          onChange={update("username")}
          onBlur={blur("username")}
          error={shown("username")}
        />
        <PasswordField
          ref={passwordRef}
          label="Password"
          name="password"
          autoComplete="current-password"
          placeholder="Your password"
          value={values.password}
          onChange={update("password")}
          onBlur={blur("password")}
          error={shown("password")}
        />
        <Flex justify="end" mt="-1">
          {/* Without JavaScript the link opens the same form as a page. */}
          <Link
            to="/forgot-password"
            className="dc-link-button"
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              setForgotOpen(true);
            }}
          >
            Forgot Password
          </Link>
        </Flex>
        <Button type="submit" size="3" className="dc-form__submit" disabled={disabled} loading={submitting}>
          Login
        </Button>
      </Form>

      <GoogleSignIn />

      <Text as="p" size="2" align="center" mt="5" color="gray">
        Don’t have an account?{" "}
        <ThemeLink asChild weight="medium">
          <Link to="/signup">SignUp Now</Link>
        </ThemeLink>
      </Text>

      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} initialUsername={values.username} />

      {verifyFor ? (
        <VerificationDialog
          open
          onOpenChange={(open) => {
            // Closing resets the flow (spec 000 §4); the banner can be dismissed again.
            if (!open) setVerifyFor(null);
          }}
          title="Pending Verification"
          username={verifyFor}
          action={`/login${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}
          startWith="request"
        />
      ) : null}
    </>
  );
}
