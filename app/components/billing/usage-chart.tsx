import { Card, Flex, Heading, Table, Text } from "@radix-ui/themes";
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useHydrated } from "#app/components/use-hydrated";
import { formatLimit, type UsageRow } from "./usage";

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
              {hydrated ? (
                <ResponsiveContainer width="100%" height={160}>
                  <BarChart data={[{ name: "Used", value: row.used }, ...(row.limit === null ? [] : [{ name: "Limit", value: row.limit }])]} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="name" tickLine={false} />
                    <YAxis allowDecimals={false} tickLine={false} />
                    <Tooltip cursor={{ fill: "var(--gray-a3)" }} />
                    <Bar dataKey="value" radius={[4, 4, 0, 0]} isAnimationActive={false}>
                      <Cell fill={row.percent !== null && row.percent >= 100 ? "var(--red-9)" : "var(--accent-9)"} />
                      <Cell fill="var(--gray-6)" />
                    </Bar>
                  </BarChart>
                </ResponsiveContainer>
              ) : null}
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
