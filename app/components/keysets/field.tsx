import { Flex, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

export function Field({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <Flex direction="column" gap="1">
      <label htmlFor={id}>
        <Text size="2" weight="medium">
          {label}
        </Text>
      </label>
      {children}
    </Flex>
  );
}
