import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsageRow } from "./usage";

/**
 * One counter's bar chart. A `.client` module: the server bundle gets an empty one, since the chart is drawn
 * only once the page is hydrated, and recharts (about 600 files with lodash and victory-vendor) would otherwise load with every process
 * (issue 42, fast start; decision 254).
 */
export function UsageBarChart({ row }: { row: UsageRow }) {
  return (
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
  );
}
