import { IconButton, Table } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { copyText } from "#app/components/chat/clipboard";
import { CopyIcon } from "#app/components/icons";
import { useToast } from "#app/components/toast";

export type RecordColumn<T> = {
  header: string;
  cell: (record: T) => ReactNode;
  /** The column that names the row (a row header in the table, the card's title on a phone). */
  names?: boolean;
};

/**
 * An admin's list of records (workflow runs, audit events): a table where
 * there is room, and one card per record on a phone (issue 44 item 12), where
 * an eight-column table broke ids into fragments and scrolled inside its card.
 * Both are rendered; CSS shows one, so the other is out of the accessibility tree too.
 */
export function AdminRecords<T>({
  records,
  columns,
  rowKey,
  testId,
  label,
  variant = "surface",
}: {
  records: T[];
  columns: RecordColumn<T>[];
  rowKey: (record: T) => string;
  testId: string;
  label: string;
  /** "ghost" inside a card that already frames it. */
  variant?: "surface" | "ghost";
}) {
  const title = columns.find((column) => column.names);
  return (
    <>
      <div className="dc-records__table dc-table-scroll">
        <Table.Root size="1" variant={variant} data-testid={testId} aria-label={label}>
          <Table.Header>
            <Table.Row>
              {columns.map((column) => (
                <Table.ColumnHeaderCell key={column.header}>{column.header}</Table.ColumnHeaderCell>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {records.map((record) => (
              <Table.Row key={rowKey(record)}>
                {columns.map((column) =>
                  column.names ? <Table.RowHeaderCell key={column.header}>{column.cell(record)}</Table.RowHeaderCell> : <Table.Cell key={column.header}>{column.cell(record)}</Table.Cell>,
                )}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </div>
      <ul className="dc-records__cards" data-testid={`${testId}-cards`} aria-label={label}>
        {records.map((record) => (
          <li key={rowKey(record)} className="dc-records__card">
            {title ? <div className="dc-records__card-title">{title.cell(record)}</div> : null}
            <dl>
              {columns
                .filter((column) => column !== title)
                .map((column) => (
                  <div key={column.header} className="dc-records__field">
                    <dt>{column.header}</dt>
                    <dd>{column.cell(record)}</dd>
                  </div>
                ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

/** A long id shortened to what fits, in full on hover, with a button that copies it whole. */
export function CopyableId({ id, what }: { id: string; what: string }) {
  const toast = useToast();
  const copy = async () => {
    if (await copyText(id)) toast.push({ type: "success", message: `${what} copied` });
    else toast.push({ type: "error", message: "No text copied" });
  };
  return (
    <span className="dc-copy-id">
      <code title={id}>{id}</code>
      <IconButton type="button" size="1" variant="ghost" color="gray" aria-label={`Copy ${what.toLowerCase()} ${id}`} onClick={() => void copy()} data-testid="copy-id">
        <CopyIcon />
      </IconButton>
    </span>
  );
}
