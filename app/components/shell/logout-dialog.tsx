import { AlertDialog, Button, Flex } from "@radix-ui/themes";
import { Form } from "@remix-run/react";
import { CsrfInput } from "#app/components/csrf-input";

/** 'Are you sure you want to log out?' then POST /logout. */
export function LogoutDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Content maxWidth="420px" data-testid="logout-dialog">
        <AlertDialog.Title>Log out</AlertDialog.Title>
        <AlertDialog.Description size="3">Are you sure you want to log out?</AlertDialog.Description>
        <Form method="post" action="/logout">
          <CsrfInput />
          <Flex gap="3" mt="5" justify="end">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray" type="button" size="3">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button type="submit" color="red" size="3">
              Log out
            </Button>
          </Flex>
        </Form>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
