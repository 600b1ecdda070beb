import { Flex, Spinner, Text } from "@radix-ui/themes";

/**
 * The footer of a table that loads as it scrolls (My Documents, My Workspaces):
 * how many rows are shown of how many there are. An empty list has no count,
 * since its empty state already says so ("0 of 0" is nobody's way of saying it);
 * while it loads, only the spinner.
 */
export function ListRange({ shown, total, hasMore, loading, testId }: { shown: number; total: number; hasMore: boolean; loading: boolean; testId: string }) {
  if (total === 0 && !loading) return null;
  return (
    <div className="dc-pagination dc-pagination--end">
      <Flex align="center" gap="2">
        {loading ? <Spinner size="1" /> : null}
        {total > 0 ? (
          <Text size="2" color="gray" data-testid={testId} aria-live="polite">
            {shown} of {total}
            {hasMore ? " · scroll for more" : ""}
          </Text>
        ) : null}
      </Flex>
    </div>
  );
}
