import { AlertDialog, Button, Flex, Text } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import type { KeysetActionResult, SavedKey } from "./types";

export const DELETE_FETCHER = "delete-key";

export function DeleteKeyDialog({ keyset }: { keyset: SavedKey }) {
  const fetcher = useFetcher<KeysetActionResult>({ key: DELETE_FETCHER });
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger>
        <Button size="1" variant="soft" color="red" data-testid="delete-key">
          Delete<span className="dc-visually-hidden"> key {keyset.name}</span>
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="440px">
        <AlertDialog.Title>Delete {keyset.name}?</AlertDialog.Title>
        <AlertDialog.Description size="2">
          The key is removed. Defaults and workspaces that use it go back to the built-in DocuChat model.
        </AlertDialog.Description>
        <fetcher.Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={keyset.id} />
          {fetcher.data && !fetcher.data.ok && fetcher.data.intent === "delete" ? (
            <Text size="2" color="red" role="alert">
              {fetcher.data.error}
            </Text>
          ) : null}
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray" type="button">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button type="submit" color="red" highContrast disabled={fetcher.state !== "idle"} data-testid="confirm-delete-key">
              Delete
            </Button>
          </Flex>
        </fetcher.Form>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
