import { AlertDialog, Button, Flex } from "@radix-ui/themes";
import type { ReactNode } from "react";

/**
 * The buttons of a form that asks first when JavaScript runs (in an alert dialog, with Cancel)
 * and posts at once without it (the submit button alone, in place).
 */
export function ConfirmActions({ hydrated, gap, size, children }: { hydrated: boolean; gap: "4" | "5"; size?: "2" | "3"; children: ReactNode }) {
  return (
    <Flex gap="3" justify="end" mt={hydrated ? gap : "0"}>
      {hydrated ? (
        <AlertDialog.Cancel>
          <Button type="button" variant="soft" color="gray" size={size}>
            Cancel
          </Button>
        </AlertDialog.Cancel>
      ) : null}
      {children}
    </Flex>
  );
}
