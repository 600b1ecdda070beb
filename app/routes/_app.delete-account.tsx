import { Button, Callout, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon } from "#app/components/icons";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { useHydrated } from "#app/components/use-hydrated";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { DELETION_CONFIRMATION, DELETION_REASONS, deleteAccountSchema, formErrors } from "#domain/identity/profile";
import { isDomainError } from "#domain/shared/domain-error";

export const meta: MetaFunction = () => [{ title: "Delete Account | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "Delete Account", sectionTo: "/profile/my-account" } };

type ActionData = { errors: Record<string, string>; reason: string; confirmation: string };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // The delete page is also the account page of the profile routes: an admin acting as this user is sent to / (spec 001 §2).
  if (user.role === "impersonate") throw redirect("/");
  const { config } = await getServices();
  return { status: user.status, deleteScheduled: user.deleteScheduled, isProduction: config.isProduction };
}

export async function action({ request }: ActionFunctionArgs): Promise<ActionData | Response> {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const user = await requireWritableUser(request);
  const input = { reason: String(formData.get("reason") ?? ""), confirmation: String(formData.get("confirmation") ?? "") };
  const parsed = deleteAccountSchema.safeParse(input);
  if (!parsed.success) return { errors: formErrors(parsed.error), ...input };
  try {
    const { accountDeletion } = await getServices();
    await accountDeletion.schedule(user.id, parsed.data, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { errors: { form: error.message }, ...input };
  }
  return redirectWithToast("/profile/my-account", { type: "info", message: "Account deletion scheduled. You can retrieve the account until the timer runs out." });
}

export default function DeleteAccountPage() {
  const { status, deleteScheduled, isProduction } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [reason, setReason] = useState(actionData?.reason ?? "");
  const [confirmation, setConfirmation] = useState(actionData?.confirmation ?? "");
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const ready = deleteAccountSchema.safeParse({ reason, confirmation }).success;

  if (status === "PENDING_DELETE") {
    return (
      <Card size="3" className="dc-delete-page">
        <Heading as="h1" size="6" mb="2">
          Account deletion is in progress
        </Heading>
        <Text as="p" color="gray" mb="4">
          Your account will be deleted for good on{" "}
          <strong>{deleteScheduled ? new Date(deleteScheduled).toUTCString() : "the scheduled date"}</strong>. Until then you
          can retrieve it and everything stays as it was.
        </Text>
        <Form method="post" action="/account/retrieve">
          <CsrfInput />
          <input type="hidden" name="redirectTo" value="/profile/my-account" />
          <Button type="submit" size="3" disabled={submitting} data-testid="retrieve-account">
            Retrieve Account
          </Button>
        </Form>
      </Card>
    );
  }

  return (
    <Card size="3" className="dc-delete-page">
      <Heading as="h1" size="6" mb="2">
        Delete Account
      </Heading>
      <Text as="p" color="gray" mb="4">
        We are sorry to see you go. Your account, documents and profile will be deleted after a grace period of{" "}
        {isProduction ? "7 days" : "10 minutes"}; until then you can retrieve it.
      </Text>
      {actionData?.errors.form ? (
        <Callout.Root color="red" mb="4" role="alert">
          <Callout.Icon>
            <AlertIcon size={16} />
          </Callout.Icon>
          <Callout.Text>{actionData.errors.form}</Callout.Text>
        </Callout.Root>
      ) : null}
      <Form method="post" className="dc-form" noValidate>
        <CsrfInput />
        <fieldset className="dc-reasons">
          <legend>
            <Text size="2" weight="medium">
              Why are you leaving?
            </Text>
          </legend>
          {DELETION_REASONS.map((option) => (
            <label key={option} className="dc-reason">
              <input type="radio" name="reason" value={option} checked={reason === option} onChange={() => setReason(option)} />
              <Text size="2">{option}</Text>
            </label>
          ))}
          {actionData?.errors.reason ? (
            <Text size="1" color="red" role="alert">
              {actionData.errors.reason}
            </Text>
          ) : null}
        </fieldset>
        <div className="dc-field">
          <Text as="label" htmlFor="confirmation" size="2" weight="medium">
            Type <strong>{DELETION_CONFIRMATION}</strong> to confirm
          </Text>
          <TextField.Root
            id="confirmation"
            name="confirmation"
            size="3"
            autoComplete="off"
            value={confirmation}
            onChange={(e) => setConfirmation(e.currentTarget.value)}
            aria-describedby={actionData?.errors.confirmation ? "confirmation-error" : undefined}
          />
          {actionData?.errors.confirmation ? (
            <Text id="confirmation-error" size="1" color="red" role="alert">
              {actionData.errors.confirmation}
            </Text>
          ) : null}
        </div>
        <Flex justify="end">
          <Button type="submit" color="red" size="3" disabled={(hydrated && !ready) || submitting} data-testid="confirm-delete">
            Delete My Account
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}
