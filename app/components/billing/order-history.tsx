import { Badge, Button, Flex, Table, Text } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { formatBillingDate, formatInr } from "./usage";

export interface OrderRow {
  id: string;
  status: "created" | "successful" | "failed";
  createdAt: string;
  method: string | null;
  amount: number;
  currency: string;
}

const PAGE_SIZE = 10;
const STATUS_COLOR = { created: "gray", successful: "green", failed: "red" } as const;

/** Order History (spec 001 §2/§3 Transaction): transactionId, createdAt, status, paymentMethod, amount, currency; 10 a page. */
export function OrderHistory({ orders, total, page }: { orders: OrderRow[]; total: number; page: number }) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (total === 0) {
    return (
      <Text as="p" color="gray" data-testid="orders-empty">
        No orders yet.
      </Text>
    );
  }
  return (
    <Flex direction="column" gap="3">
      <div className="dc-orders">
        <Table.Root size="1" variant="surface" data-testid="orders-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>transactionId</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>createdAt</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>paymentMethod</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">amount</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>currency</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {orders.map((order) => (
              <Table.Row key={order.id}>
                <Table.RowHeaderCell className="dc-orders__id">{order.id}</Table.RowHeaderCell>
                <Table.Cell>{formatBillingDate(order.createdAt)}</Table.Cell>
                <Table.Cell>
                  <Badge color={STATUS_COLOR[order.status]} highContrast>
                    {order.status}
                  </Badge>
                </Table.Cell>
                <Table.Cell>{order.method ?? "—"}</Table.Cell>
                <Table.Cell justify="end">{formatInr(order.amount, "").trim()}</Table.Cell>
                <Table.Cell>{order.currency}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </div>
      {pages > 1 ? (
        <Flex gap="2" align="center" justify="end">
          <Button asChild variant="soft" size="1" disabled={page <= 1}>
            <Link to={`?tab=orders&page=${page - 1}`} aria-disabled={page <= 1}>
              Previous
            </Link>
          </Button>
          <Text size="2">
            Page {page} of {pages}
          </Text>
          <Button asChild variant="soft" size="1" disabled={page >= pages}>
            <Link to={`?tab=orders&page=${page + 1}`} aria-disabled={page >= pages}>
              Next
            </Link>
          </Button>
        </Flex>
      ) : null}
    </Flex>
  );
}
