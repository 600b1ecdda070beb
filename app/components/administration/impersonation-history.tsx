import { Badge, Button, Table, Text } from "@radix-ui/themes";
import { Form } from "@remix-run/react";
import { CsrfInput } from "#app/components/csrf-input";
import type { HistoryRow } from "#application/administration/administration-queries";

/** Times as the server recorded them (UTC), the same on both sides of hydration. */
export const utcTime = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—");

const ENDED_BY: Record<string, string> = { admin: "exited", expiry: "expired", forced: "ended by another admin" };

export function statusLabel(row: Pick<HistoryRow, "status" | "endedBy">): string {
  return row.status === "ACTIVE" ? "Active" : `Ended (${ENDED_BY[row.endedBy ?? "admin"]})`;
}

/** What the admin opened, in the order they opened it. */
export function ViewedList({ views }: { views: HistoryRow["views"] }) {
  if (views.length === 0) return <Text color="gray">Nothing opened</Text>;
  return (
    <ul className="dc-admin__views">
      {views.map((view, index) => (
        <li key={`${view.viewedAt}-${index}`}>
          {view.kind} “{view.title}” <Text color="gray">at {utcTime(view.viewedAt).slice(11)}</Text>
        </li>
      ))}
    </ul>
  );
}

/** The Impersonation History table (spec 001 §2): User Name, Status, Start Time, End Time, Admin, plus reason and what was viewed. */
export function ImpersonationHistoryTable({ rows, adminId, q }: { rows: HistoryRow[]; adminId: string; q: string }) {
  if (rows.length === 0) return <Text color="gray">No impersonations yet.</Text>;
  return (
    <div className="dc-table-scroll">
      <Table.Root size="1" variant="surface" data-testid="impersonation-history">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>User Name</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Start Time</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>End Time</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Admin</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Reason</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Viewed</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id}>
              <Table.RowHeaderCell>{row.userName}</Table.RowHeaderCell>
              <Table.Cell>
                <Badge highContrast color={row.status === "ACTIVE" ? "green" : "gray"}>{statusLabel(row)}</Badge>
                {row.status === "ACTIVE" && row.adminId !== adminId ? (
                  <Form method="post" className="dc-admin__force">
                    <CsrfInput />
                    <input type="hidden" name="intent" value="force-end" />
                    <input type="hidden" name="target" value={row.id} />
                    <input type="hidden" name="q" value={q} />
                    <Button type="submit" size="1" variant="soft" color="red">
                      End
                    </Button>
                  </Form>
                ) : null}
              </Table.Cell>
              <Table.Cell>{utcTime(row.startedAt)}</Table.Cell>
              <Table.Cell>{utcTime(row.endedAt)}</Table.Cell>
              <Table.Cell>{row.adminName}</Table.Cell>
              <Table.Cell>{row.reason}</Table.Cell>
              <Table.Cell>
                <ViewedList views={row.views} />
                <Text as="div" size="1" mt="1">
                  <a href={`/admin/audit/account?impersonation=${row.id}`}>Audit</a>
                </Text>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </div>
  );
}
