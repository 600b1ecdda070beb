import { Button, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Field } from "#app/components/auth/field";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon, CommunityIcon } from "#app/components/icons";
import { Logo } from "#app/components/logo";
import { LanguageField, SelectField } from "#app/components/profile/profile-fields";
import { useHydrated } from "#app/components/use-hydrated";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { formErrors, onboardingOccupations, onboardingSchema } from "#domain/identity/profile";
import { isDomainError } from "#domain/shared/domain-error";

export const meta: MetaFunction = () => [{ title: "Onboarding | DocuChat" }];

type Values = { firstName: string; lastName: string; email: string; occupation: string; language: string };
type ActionData = { errors: Partial<Record<keyof Values | "form", string>>; values: Values };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { allowIncompleteOnboarding: true });
  // Already onboarded: nothing to do here (spec 000 §2: the profile is refetched).
  if (user.isOnboarded) throw redirect("/");
  const { config } = await getServices();
  return {
    productName: config.productName,
    isProduction: config.isProduction,
    user: { firstName: user.firstName, lastName: user.lastName, email: user.email },
  };
}

export async function action({ request }: ActionFunctionArgs): Promise<ActionData | Response> {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const user = await requireUser(request, { allowIncompleteOnboarding: true });
  if (user.isOnboarded) return redirect("/");
  const { profiles, config } = await getServices();
  // The email is read-only: whatever the form says, the account's own address is what gets checked.
  const values: Values = {
    firstName: String(formData.get("firstName") ?? ""),
    lastName: String(formData.get("lastName") ?? ""),
    email: user.email,
    occupation: String(formData.get("occupation") ?? ""),
    language: String(formData.get("language") ?? ""),
  };
  const parsed = onboardingSchema(config.isProduction).safeParse(values);
  if (!parsed.success) return { errors: formErrors(parsed.error), values };
  try {
    await profiles.completeOnboarding(user.id, parsed.data, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    if (error.code === "ALREADY_ONBOARDED") return redirect("/");
    return { errors: { [error.field ?? "form"]: error.message }, values };
  }
  return redirectWithToast("/", { type: "success", message: "Profile saved. Welcome aboard!" });
}

export default function OnboardingPage() {
  const { productName, isProduction, user } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const schema = onboardingSchema(isProduction);
  const [values, setValues] = useState<Values>(
    actionData?.values ?? { firstName: user.firstName, lastName: user.lastName, email: user.email, occupation: "", language: "" },
  );
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const clientErrors = hydrated ? (() => {
    const result = schema.safeParse(values);
    return result.success ? {} : formErrors(result.error);
  })() : {};
  const serverErrors = actionData?.errors ?? {};
  const error = (field: keyof Values) => (touched[field] || submitted ? clientErrors[field] : undefined) ?? serverErrors[field];
  const set = (field: keyof Values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const blur = (field: keyof Values) => () => setTouched((t) => ({ ...t, [field]: true }));
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";

  return (
    <div className="dc-onboarding">
      <header className="dc-onboarding__header">
        <Logo productName={productName} />
      </header>
      <main id="main" className="dc-onboarding__main">
        <Card size={{ initial: "2", sm: "4" }} className="dc-onboarding__card">
          <Heading as="h1" size={{ initial: "6", sm: "7" }}>
            Lets Get You Onboarded!
          </Heading>
          <Text as="p" color="gray" size="2" mt="1" mb="5">
            Tell us a little about yourself so {productName} can set things up for you.
          </Text>
          {serverErrors.form ? (
            <Callout.Root color="red" mb="4" role="alert">
              <Callout.Icon>
                <AlertIcon size={16} />
              </Callout.Icon>
              <Callout.Text>{serverErrors.form}</Callout.Text>
            </Callout.Root>
          ) : null}
          <Form
            method="post"
            noValidate
            className="dc-form"
            onSubmit={(event) => {
              setSubmitted(true);
              if (!schema.safeParse(values).success) event.preventDefault();
            }}
          >
            <CsrfInput />
            <div className="dc-form__row">
              <Field label="First name" name="firstName" value={values.firstName} autoComplete="given-name" error={error("firstName")} onChange={(e) => set("firstName")(e.currentTarget.value)} onBlur={blur("firstName")} />
              <Field label="Last name" name="lastName" value={values.lastName} autoComplete="family-name" error={error("lastName")} onChange={(e) => set("lastName")(e.currentTarget.value)} onBlur={blur("lastName")} />
            </div>
            <Field label="Email" name="email" type="email" value={values.email} readOnly error={error("email")} hint="Your sign-up address. It cannot be changed here." />
            <SelectField
              label="Occupation"
              name="occupation"
              value={values.occupation}
              options={onboardingOccupations(isProduction)}
              placeholder="Select your occupation"
              error={error("occupation")}
              onChange={set("occupation")}
              onBlur={blur("occupation")}
            />
            <LanguageField value={values.language} error={error("language")} onChange={set("language")} onBlur={blur("language")} />
            <Button type="submit" size="3" className="dc-form__submit" disabled={submitting} data-testid="submit-onboarding">
              {submitting ? "Saving…" : "Submit Form"}
            </Button>
          </Form>
        </Card>
        <aside className="dc-onboarding__note" aria-labelledby="contribute-heading">
          <Flex gap="3" align="start">
            <span className="dc-onboarding__note-icon" aria-hidden="true">
              <CommunityIcon size={22} />
            </span>
            <div>
              <Heading as="h2" size="3" id="contribute-heading">
                Grow the public library
              </Heading>
              <Text as="p" size="2" color="gray" mt="1">
                Have notes, papers or guides others could learn from? Once you are set up, share them with a public
                community so every reader can chat with them too.
              </Text>
              <Text as="p" size="2" mt="2">
                {/* Until the form is submitted every page leads back here, so the link opens the communities once you are set up. */}
                <Link to="/community/publicCommunity" className="dc-text-link" data-testid="onboarding-communities-link">
                  Explore the public communities
                </Link>
              </Text>
            </div>
          </Flex>
        </aside>
      </main>
    </div>
  );
}
