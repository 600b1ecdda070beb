import { Button, Callout, Flex } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { PasswordField } from "#app/components/auth/field";
import { CsrfInput } from "#app/components/csrf-input";
import { AlertIcon } from "#app/components/icons";
import { useToast } from "#app/components/toast";
import { useHydrated } from "#app/components/use-hydrated";
import { changePasswordSchema } from "#domain/identity/credentials";

export const CHANGE_PASSWORD_ACTION = "/profile/password";
export const PASSWORD_CHANGED_TOAST = "Password changed successfully!";

type FieldName = "oldPassword" | "newPassword";
export type ChangePasswordActionData =
  | { ok: true }
  | { ok: false; fieldErrors: Partial<Record<FieldName, string>>; formError?: string };

/**
 * Change Password (spec 001 §2/§5) for the profile page: old and new password,
 * checked with the action's schema; POSTs to /profile/password.
 */
export function ChangePasswordForm() {
  const fetcher = useFetcher<ChangePasswordActionData>({ key: "change-password" });
  const hydrated = useHydrated();
  const toast = useToast();
  const [values, setValues] = useState<Record<FieldName, string>>({ oldPassword: "", newPassword: "" });
  const [touched, setTouched] = useState<Record<FieldName, boolean>>({ oldPassword: false, newPassword: false });
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === handled.current) return;
    handled.current = fetcher.data;
    if (fetcher.data.ok) {
      toast.push({ type: "success", message: PASSWORD_CHANGED_TOAST });
      setValues({ oldPassword: "", newPassword: "" });
      setTouched({ oldPassword: false, newPassword: false });
      setServerErrors({});
      setFormError(null);
    } else {
      setServerErrors(fetcher.data.fieldErrors);
      setFormError(fetcher.data.formError ?? null);
    }
  }, [fetcher.state, fetcher.data, toast]);

  const parsed = changePasswordSchema.safeParse(values);
  const clientError = (field: FieldName) =>
    parsed.success ? null : (parsed.error.issues.find((i) => i.path[0] === field)?.message ?? null);
  const shown = (field: FieldName) => serverErrors[field] ?? (touched[field] ? clientError(field) : null);

  const update = (field: FieldName) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setTouched({ oldPassword: true, newPassword: true });
    if (!parsed.success) event.preventDefault();
  };

  return (
    <fetcher.Form method="post" action={CHANGE_PASSWORD_ACTION} noValidate onSubmit={onSubmit} className="dc-form" aria-label="Change password">
      <CsrfInput />
      {hydrated ? <input type="hidden" name="mode" value="script" /> : null}
      {formError ? (
        <Callout.Root color="red" size="1" role="alert">
          <Callout.Icon>
            <AlertIcon size={16} />
          </Callout.Icon>
          <Callout.Text>{formError}</Callout.Text>
        </Callout.Root>
      ) : null}
      <PasswordField
        label="Old password"
        name="oldPassword"
        autoComplete="current-password"
        value={values.oldPassword}
        onChange={update("oldPassword")}
        onBlur={() => setTouched((t) => ({ ...t, oldPassword: true }))}
        error={shown("oldPassword")}
      />
      <PasswordField
        label="New password"
        name="newPassword"
        autoComplete="new-password"
        value={values.newPassword}
        onChange={update("newPassword")}
        onBlur={() => setTouched((t) => ({ ...t, newPassword: true }))}
        error={shown("newPassword")}
      />
      <Flex justify="end">
        <Button type="submit" size="3" loading={fetcher.state !== "idle"}>
          Change Password
        </Button>
      </Flex>
    </fetcher.Form>
  );
}
