import { Card, Flex, Heading, Table, Text } from "@radix-ui/themes";
import { useHydrated } from "#app/components/use-hydrated";
import { formatLimit, type UsageRow } from "./usage";
import { UsageBarChart } from "./usage-bar-chart.client";

/**
 * A bar chart per counter (used against the limit), drawn once the page is
 * hydrated; the same numbers are a table for screen readers and for
 * browsers without JavaScript (the chart is hidden from assistive technology).
 */
export function UsageCharts({ rows, period }: { rows: UsageRow[]; period: "Monthly" | "Daily" }) {
  const hydrated = useHydrated();
  return (
    <Flex direction="column" gap="4">
      <div className="dc-usage-grid">
        {rows.map((row) => (
          <Card key={row.counter} className="dc-usage-card" data-testid={`usage-chart-${row.counter}`}>
            <Flex justify="between" align="baseline" gap="2" wrap="wrap">
              <Heading as="h3" size="3">
                {row.label}
              </Heading>
              <Text size="2" color={row.percent !== null && row.percent >= 100 ? "red" : "gray"}>
                {row.percent === null ? "Unlimited" : `${row.percent}% used`}
              </Text>
            </Flex>
            <div className="dc-usage-card__chart" aria-hidden="true">
              {hydrated ? <UsageBarChart row={row} /> : null}
            </div>
            <Text as="p" size="2">
              {row.used.toLocaleString("en-IN")} of {formatLimit(row.limit)}
            </Text>
          </Card>
        ))}
      </div>
      <Table.Root size="1" variant="surface" aria-label={`${period} usage`} data-testid={`usage-table-${period.toLowerCase()}`}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Counter</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">Used</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">Limit</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">Used (%)</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.counter}>
              <Table.RowHeaderCell>{row.label}</Table.RowHeaderCell>
              <Table.Cell justify="end">{row.used.toLocaleString("en-IN")}</Table.Cell>
              <Table.Cell justify="end">{formatLimit(row.limit)}</Table.Cell>
              <Table.Cell justify="end">{row.percent === null ? "—" : `${row.percent}%`}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Flex>
  );
}
