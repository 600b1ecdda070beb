import { AlertDialog, Button, Text } from "@radix-ui/themes";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import { ConfirmActions } from "#app/components/confirm-actions";
import { useHydrated } from "#app/components/use-hydrated";

export const LOG_OUT_EVERYWHERE_ACTION = "/profile/sessions";

/**
 * 'Log out of all Devices' (spec 001 §2): revokes every session of the
 * account, this browser's too. Asks first when JavaScript runs; without it
 * the button posts directly.
 */
export function LogOutEverywhere({ readOnly = false }: { readOnly?: boolean }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const form = (
    <Form method="post" action={LOG_OUT_EVERYWHERE_ACTION} reloadDocument>
      <CsrfInput />
      <ConfirmActions hydrated={hydrated} gap="5" size="3">
        <Button type="submit" color="red" size="3" disabled={readOnly}>
          Log out of all Devices
        </Button>
      </ConfirmActions>
    </Form>
  );
  if (!hydrated) return form;
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger>
        <Button type="button" color="red" variant="soft" size="3" disabled={readOnly}>
          Log out of all Devices
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="440px" data-testid="log-out-everywhere-dialog">
        <AlertDialog.Title>Log out of all devices</AlertDialog.Title>
        <AlertDialog.Description size="3">
          Every browser and device signed in to this account is logged out, this one included.
        </AlertDialog.Description>
        <Text as="p" size="2" color="gray" mt="2">
          You can log in again right away.
        </Text>
        {form}
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
