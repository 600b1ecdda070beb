import { Flex, Select, Text } from "@radix-ui/themes";

/** The spec's page sizes for My Documents and My Workspaces. */
export const PAGE_SIZES = [5, 10, 15] as const;

/** A size from the URL, or the default when it is not one of the spec's. */
export function pageSizeFrom(value: string | null, fallback = 10): number {
  const size = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(size) ? size : fallback;
}

/** "Rows per page" with its select, labelled for assistive technology by `id`. */
export function RowsPerPage({ id, size, onChange }: { id: string; size: number; onChange: (size: number) => void }) {
  return (
    <Flex align="center" gap="2">
      <Text size="2" color="gray" id={id}>
        Rows per page
      </Text>
      <Select.Root value={String(size)} onValueChange={(v) => onChange(Number(v))}>
        <Select.Trigger aria-labelledby={id} variant="soft" color="gray" />
        <Select.Content position="popper">
          {PAGE_SIZES.map((s) => (
            <Select.Item key={s} value={String(s)}>
              {s}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}
