import { AlertDialog, Button } from "@radix-ui/themes";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { ConfirmActions } from "#app/components/confirm-actions";
import { useHydrated } from "#app/components/use-hydrated";

/**
 * 'Make admin' / 'Revoke admin' on the dashboard: a role change sits beside
 * Impersonate, so it asks first, naming the user (issue 44). Without
 * JavaScript the button posts at once.
 */
export function RoleChange({ user, q, busy }: { user: { id: string; name: string; isAdmin: boolean }; q: string; busy: boolean }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const label = user.isAdmin ? "Revoke admin" : "Make admin";
  const form = (
    <Form method="post" onSubmit={() => setOpen(false)}>
      <CsrfInput />
      <input type="hidden" name="intent" value={user.isAdmin ? "revoke" : "grant"} />
      <input type="hidden" name="target" value={user.id} />
      <input type="hidden" name="q" value={q} />
      <ConfirmActions hydrated={hydrated} gap="4">
        <Button type="submit" variant={hydrated ? "solid" : "soft"} color={hydrated && user.isAdmin ? "red" : hydrated ? undefined : "gray"} disabled={busy} data-testid="confirm-role-change">
          {label}
        </Button>
      </ConfirmActions>
    </Form>
  );
  if (!hydrated) return form;
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger>
        <Button type="button" variant="soft" color="gray" disabled={busy} data-testid="role-change">
          {label}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="460px">
        <AlertDialog.Title>{user.isAdmin ? `Revoke ${user.name}'s admin role?` : `Make ${user.name} an admin?`}</AlertDialog.Title>
        <AlertDialog.Description size="2">
          {user.isAdmin
            ? `${user.name} will no longer reach the admin dashboard, workflow runs or audits.`
            : `${user.name} will reach the admin dashboard, search every account, impersonate users and change admin roles.`}
        </AlertDialog.Description>
        {form}
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
