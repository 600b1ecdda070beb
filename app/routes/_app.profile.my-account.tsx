import { Badge, Button, Callout, Card, DataList, Flex, Heading, Spinner, Text } from "@radix-ui/themes";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Field } from "#app/components/auth/field";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon, LockIcon, LogoutIcon, UserIcon } from "#app/components/icons";
import { LanguageField, SelectField } from "#app/components/profile/profile-fields";
import { PictureEditor } from "#app/components/profile/picture-editor";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { Avatar } from "#app/components/shell/profile-card";
import { useHydrated } from "#app/components/use-hydrated";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { AccountViews } from "#app/components/administration/account-views";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { ACCOUNT_PENDING_DELETE_MESSAGE as PENDING_DELETE_MESSAGE } from "#domain/identity/user";
import { redirectWithToast } from "#app/utils/toast.server";
import { formErrors, PROFILE_OCCUPATIONS, profileSchema } from "#domain/identity/profile";
import { isDomainError } from "#domain/shared/domain-error";

export const meta: MetaFunction = () => [{ title: "My Account | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "My Account", sectionTo: "/profile/my-account" } };

type Values = { firstName: string; lastName: string; occupation: string; language: string };
type ActionData = { errors: Partial<Record<keyof Values | "form", string>>; values: Values };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { administration } = await getServices();
  return {
    adminViews: await administration.impersonationsOf(user.id),
    user: {
      id: user.id,
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      occupation: user.occupation,
      language: user.language,
      pictureUrl: user.pictureUrl,
      status: user.status,
    },
  };
}

export async function action({ request }: ActionFunctionArgs): Promise<ActionData | Response> {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const user = await requireWritableUser(request);
  const values: Values = {
    firstName: String(formData.get("firstName") ?? ""),
    lastName: String(formData.get("lastName") ?? ""),
    occupation: String(formData.get("occupation") ?? ""),
    language: String(formData.get("language") ?? ""),
  };
  const parsed = profileSchema.safeParse(values);
  if (!parsed.success) return { errors: formErrors(parsed.error), values };
  try {
    const { profiles } = await getServices();
    await profiles.updateProfile(user.id, parsed.data, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { errors: { [error.field ?? "form"]: error.message }, values };
  }
  return redirectWithToast("/profile/my-account", { type: "success", message: "Profile updated successfully" });
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <DataList.Item>
      <DataList.Label minWidth="140px">{label}</DataList.Label>
      <DataList.Value>{value || <Text color="gray">Not set</Text>}</DataList.Value>
    </DataList.Item>
  );
}

export default function MyAccount() {
  const { user, adminViews } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [searchParams] = useSearchParams();
  const pending = user.status === "PENDING_DELETE";
  const saved: Values = { firstName: user.firstName, lastName: user.lastName, occupation: user.occupation, language: user.language };
  // Edit mode: ?edit=1 without JavaScript, local state with it. A failed save stays in edit mode.
  const [editing, setEditing] = useState(!pending && (searchParams.get("edit") === "1" || Boolean(actionData)));
  const [values, setValues] = useState<Values>(actionData?.values ?? saved);
  const [touched, setTouched] = useState(false);
  const saving = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post" && navigation.formAction?.startsWith("/profile/my-account") === true;

  // After a successful save the loader data changes: leave edit mode with the new values.
  useEffect(() => {
    if (navigation.state === "idle" && !actionData) {
      setValues({ firstName: user.firstName, lastName: user.lastName, occupation: user.occupation, language: user.language });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user.firstName, user.lastName, user.occupation, user.language]);
  useEffect(() => {
    if (navigation.state === "idle" && !actionData && searchParams.get("edit") !== "1") setEditing(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user]);

  const result = hydrated && touched ? profileSchema.safeParse(values) : null;
  const clientErrors = result && !result.success ? formErrors(result.error) : {};
  const errors = { ...(actionData?.errors ?? {}), ...clientErrors };
  const set = (field: keyof Values) => (value: string) => {
    setTouched(true);
    setValues((v) => ({ ...v, [field]: value }));
  };
  const cancel = () => {
    setValues(saved);
    setTouched(false);
    setEditing(false);
  };

  return (
    <div className="dc-account">
      {pending ? (
        <Callout.Root color="amber" mb="4">
          <Callout.Icon>
            <AlertIcon size={16} />
          </Callout.Icon>
          <Callout.Text>{PENDING_DELETE_MESSAGE} Your details are shown read-only.</Callout.Text>
        </Callout.Root>
      ) : null}

      <div className="dc-account__grid">
        <Card size="3" className="dc-account__card">
          <Flex justify="between" align="center" mb="4" gap="3" wrap="wrap">
            <Heading as="h2" size="4">
              Personal Details
            </Heading>
            {!editing ? (
              <Button asChild variant="soft" disabled={pending}>
                {pending ? (
                  <span aria-disabled="true" title={PENDING_DELETE_MESSAGE}>Edit</span>
                ) : (
                  <Link
                    to="?edit=1"
                    data-testid="edit-profile"
                    onClick={(e) => {
                      if (!hydrated) return;
                      e.preventDefault();
                      setEditing(true);
                    }}
                  >
                    Edit
                  </Link>
                )}
              </Button>
            ) : null}
          </Flex>

          <Flex gap="4" align="center" mb="5" wrap="wrap">
            <Avatar user={user} size="large" />
            <div>
              <Text as="div" weight="bold" size="3">
                {[user.firstName, user.lastName].filter(Boolean).join(" ") || user.username}
              </Text>
              <Text as="div" color="gray" size="2" mb="2">
                @{user.username}
              </Text>
              {hydrated ? (
                <PictureEditor disabled={pending} disabledReason={PENDING_DELETE_MESSAGE} />
              ) : (
                <Text as="p" size="1" color="gray">
                  Changing the picture needs JavaScript (it is cropped in the browser).
                </Text>
              )}
            </div>
          </Flex>

          {editing ? (
            <Form method="post" action="/profile/my-account" noValidate className="dc-form" onSubmit={(e) => {
              setTouched(true);
              if (!profileSchema.safeParse(values).success) e.preventDefault();
            }}>
              <CsrfInput />
              {errors.form ? (
                <Callout.Root color="red" role="alert">
                  <Callout.Text>{errors.form}</Callout.Text>
                </Callout.Root>
              ) : null}
              <fieldset className="dc-fieldset" disabled={saving}>
                <div className="dc-form__row">
                  <Field label="First name" name="firstName" value={values.firstName} autoComplete="given-name" error={errors.firstName} onChange={(e) => set("firstName")(e.currentTarget.value)} />
                  <Field label="Last name" name="lastName" value={values.lastName} autoComplete="family-name" error={errors.lastName} onChange={(e) => set("lastName")(e.currentTarget.value)} />
                </div>
                <Field label="Email" name="email" type="email" value={user.email} readOnly hint="Your sign-in address cannot be changed here." />
                <SelectField label="Occupation" name="occupation" value={values.occupation} options={PROFILE_OCCUPATIONS} placeholder="Select your occupation" error={errors.occupation} onChange={set("occupation")} />
                <LanguageField label="Language" value={values.language} error={errors.language} onChange={set("language")} />
              </fieldset>
              <Flex gap="3" justify="end">
                {hydrated ? (
                  <Button type="button" variant="soft" color="gray" onClick={cancel} disabled={saving}>
                    Cancel
                  </Button>
                ) : (
                  <Button asChild variant="soft" color="gray">
                    <Link to=".">Cancel</Link>
                  </Button>
                )}
                <Button type="submit" disabled={saving} data-testid="save-profile">
                  {saving ? <Spinner /> : null}
                  {saving ? "Saving…" : "Save"}
                </Button>
              </Flex>
            </Form>
          ) : (
            <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} data-testid="personal-details">
              <Detail label="First name" value={user.firstName} />
              <Detail label="Last name" value={user.lastName} />
              <Detail label="Email" value={user.email} />
              <Detail label="Occupation" value={user.occupation} />
              <Detail label="Language" value={user.language} />
            </DataList.Root>
          )}
        </Card>

        <Card size="3" className="dc-account__card">
          <Heading as="h2" size="4" mb="3">
            Support
          </Heading>
          <ul className="dc-support-list">
            <li>
              <Link to="/account/security" className="dc-support-link">
                <LockIcon size={16} /> Change Password
              </Link>
            </li>
            <li>
              <Link to="/account/security" className="dc-support-link">
                <LogoutIcon size={16} /> Log out of all Devices
              </Link>
            </li>
            <li>
              <Link to="/delete-account" className={`dc-support-link${pending ? "" : " dc-support-link--danger"}`} data-testid="delete-account-link">
                <UserIcon size={16} /> {pending ? "Retrieve Account" : "Delete My Account"}
                {pending ? (
                  <Badge color="red" ml="2">
                    Deletion pending
                  </Badge>
                ) : null}
              </Link>
            </li>
          </ul>
        </Card>
        <AccountViews rows={adminViews} />
      </div>
    </div>
  );
}
