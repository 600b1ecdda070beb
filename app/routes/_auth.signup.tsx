import { Button, Callout, Flex, Heading, Link as ThemeLink, Text } from "@radix-ui/themes";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Field, PasswordField } from "#app/components/auth/field";
import { GoogleSignIn } from "#app/components/auth/google-button";
import { NoJsVerification } from "#app/components/auth/no-js-verification";
import { handleVerificationIntent } from "#app/components/auth/verification-actions.server";
import { VerificationDialog, type VerificationActionData } from "#app/components/auth/verification-dialog";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon, MailIcon } from "#app/components/icons";
import { useHydrated } from "#app/components/use-hydrated";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { refuseWhileImpersonating, requireAnonymous } from "#app/utils/session.server";
import { emailSchema, fieldErrors, newPasswordSchema, signupSchema, usernameSchema } from "#domain/identity/credentials";
import { isDomainError } from "#domain/shared/domain-error";
import type { UsernameAvailability } from "#app/routes/api.username-available";

export const meta: MetaFunction = () => [{ title: "Sign up | DocuChat" }];

type FieldName = "username" | "email" | "password";
const FIELDS: FieldName[] = ["username", "email", "password"];
const fieldSchemas = { username: usernameSchema, email: emailSchema, password: newPasswordSchema } as const;

type SignupActionData =
  | VerificationActionData
  | { intent: "signup"; ok: false; fieldErrors: Partial<Record<FieldName, string>>; formError?: string; values: { username: string; email: string } }
  | { intent: "signup"; ok: true; step: "confirm"; username: string; email: string; sentAt: number };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const refCode = new URL(request.url).searchParams.get("refCode")?.slice(0, 64) ?? "";
  return { refCode };
}

export async function action({ request }: ActionFunctionArgs): Promise<SignupActionData | Response> {
  await refuseWhileImpersonating(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const intent = String(formData.get("intent") ?? "signup");
  if (intent === "resend" || intent === "confirm") {
    return handleVerificationIntent(request, formData, intent, {
      redirectTo: "/",
      toast: { type: "success", message: "Signed up successfully. Welcome aboard!" },
    });
  }

  const values = { username: String(formData.get("username") ?? ""), email: String(formData.get("email") ?? "") };
  const refCode = String(formData.get("refCode") ?? "").trim();
  const parsed = signupSchema.safeParse({
    username: values.username,
    email: values.email,
    password: String(formData.get("password") ?? ""),
    refCode: refCode || undefined,
  });
  if (!parsed.success) return { intent: "signup", ok: false, fieldErrors: fieldErrors(parsed.error), values };

  try {
    const services = await getServices();
    const ctx = await getRequestContext(request);
    await services.identity.register(parsed.data, ctx);
    return { intent: "signup", ok: true, step: "confirm", username: parsed.data.username, email: parsed.data.email, sentAt: Date.now() };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const field = error.field as FieldName | undefined;
    if (field && FIELDS.includes(field)) return { intent: "signup", ok: false, fieldErrors: { [field]: error.message }, values };
    const formError = error.code === "USER_EXISTS" ? "User already exists. Try Login!" : error.message;
    return { intent: "signup", ok: false, fieldErrors: {}, formError, values };
  }
}

export default function SignupPage() {
  const { refCode } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const availability = useFetcher<UsernameAvailability>();
  const formRef = useRef<HTMLFormElement>(null);

  const signupResult = actionData && "intent" in actionData && actionData.intent === "signup" ? actionData : null;
  const [values, setValues] = useState<Record<FieldName, string>>({
    username: signupResult && !signupResult.ok ? signupResult.values.username : "",
    email: signupResult && !signupResult.ok ? signupResult.values.email : "",
    password: "",
  });
  const [touched, setTouched] = useState<Record<FieldName, boolean>>({ username: false, email: false, password: false });
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState<{ username: string; email: string; sentAt: number } | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);

  // A new answer from the action: show its errors, or open the code dialog.
  useEffect(() => {
    if (!signupResult) return;
    if (signupResult.ok) {
      setPending({ username: signupResult.username, email: signupResult.email, sentAt: Date.now() });
      setDialogOpen(true);
      setServerErrors({});
      setFormError(null);
    } else {
      setServerErrors(signupResult.fieldErrors);
      setFormError(signupResult.formError ?? null);
      setTouched({ username: true, email: true, password: true });
    }
  }, [signupResult]);

  const clientError = (field: FieldName): string | null => {
    const result = fieldSchemas[field].safeParse(values[field]);
    return result.success ? null : (result.error.issues[0]?.message ?? null);
  };
  const takenMessage =
    availability.data && availability.data.username === values.username.trim() && availability.data.available === false
      ? (availability.data.message ?? "Username already present")
      : null;
  const errors: Record<FieldName, string | null> = {
    username: serverErrors.username ?? clientError("username") ?? takenMessage,
    email: serverErrors.email ?? clientError("email"),
    password: serverErrors.password ?? clientError("password"),
  };
  const shown = (field: FieldName) => (touched[field] || serverErrors[field] ? errors[field] : null);

  // Without JavaScript the dialog cannot open: the code step renders in the page instead.
  const verification = actionData && (actionData.intent === "resend" || actionData.intent === "confirm") ? actionData : null;
  const noJsUsername = hydrated ? null : signupResult?.ok ? signupResult.username : (verification?.username ?? null);
  const noJsError = verification && !verification.ok ? verification.error : null;

  const anyEmpty = FIELDS.some((f) => values[f].trim() === "");
  const anyError = FIELDS.some((f) => errors[f]);
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "signup";
  const disabled = hydrated && (anyEmpty || anyError);

  const update = (field: FieldName) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  };
  const blur = (field: FieldName) => () => {
    setTouched((t) => ({ ...t, [field]: true }));
    if (field === "username") {
      const username = values.username.trim();
      if (username && usernameSchema.safeParse(username).success) {
        availability.load(`/api/username-available?username=${encodeURIComponent(username)}`);
      }
    }
  };
  const reset = () => {
    setValues({ username: "", email: "", password: "" });
    setTouched({ username: false, email: false, password: false });
    setServerErrors({});
    setFormError(null);
    formRef.current?.reset();
  };

  return (
    <>
      <Heading as="h1" size="8" mb="1" className="dc-auth__title">
        Become a member!
      </Heading>
      <Text as="p" color="gray" size="3" mb="5">
        Create your account to start chatting with your documents.
      </Text>

      {formError ? (
        <Callout.Root color="red" mb="4" role="alert">
          <Callout.Icon>
            <AlertIcon size={16} />
          </Callout.Icon>
          <Callout.Text>{formError}</Callout.Text>
        </Callout.Root>
      ) : null}

      {pending && !dialogOpen ? (
        <Callout.Root color="indigo" mb="4">
          <Callout.Icon>
            <MailIcon size={16} />
          </Callout.Icon>
          <Callout.Text>
            We sent a verification code to {pending.email}.{" "}
            <ThemeLink asChild weight="medium">
              <button type="button" className="dc-link-button" onClick={() => setDialogOpen(true)}>
                Enter the code
              </button>
            </ThemeLink>
          </Callout.Text>
        </Callout.Root>
      ) : null}

      {noJsUsername ? <NoJsVerification title="Complete Signup" username={noJsUsername} error={noJsError} /> : null}

      <Form method="post" noValidate ref={formRef} className="dc-form" aria-label="Sign up">
        <CsrfInput />
        <input type="hidden" name="intent" value="signup" />
        <input type="hidden" name="refCode" value={refCode} />
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          placeholder="e.g. alexreader"
          value={values.username}
          onChange={update("username")}
          onBlur={blur("username")}
          error={shown("username")}
          hint="Letters and digits only."
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={values.email}
          onChange={update("email")}
          onBlur={blur("email")}
          error={shown("email")}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          placeholder="8–20 characters"
          value={values.password}
          onChange={update("password")}
          onBlur={blur("password")}
          error={shown("password")}
          hint="Upper and lower case letters, a digit and one of @$!%*#?&."
        />
        <Flex justify="end" mt="-1">
          <ThemeLink asChild size="2">
            <button type="button" className="dc-link-button" onClick={reset}>
              Reset
            </button>
          </ThemeLink>
        </Flex>
        <Button type="submit" size="3" className="dc-form__submit" disabled={disabled} loading={submitting}>
          Signup
        </Button>
      </Form>

      <GoogleSignIn />

      <Text as="p" size="2" align="center" mt="5" color="gray">
        Already have an account?{" "}
        <ThemeLink asChild weight="medium">
          <Link to="/login">Login Now</Link>
        </ThemeLink>
      </Text>

      {pending ? (
        <VerificationDialog
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          title="Complete Signup"
          username={pending.username}
          destination={pending.email}
          action="/signup"
          startWith="code"
          codeSentAt={pending.sentAt}
        />
      ) : null}
    </>
  );
}
