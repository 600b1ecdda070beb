import { Checkbox, Table } from "@radix-ui/themes";
import { useEffect, useState, type ReactNode } from "react";
import { useSearchParams, useSubmit } from "@remix-run/react";

/** One more column of the table: its header and what each row shows in it. */
export type TableColumn<Item> = {
  header: ReactNode;
  justify?: "end";
  className?: string;
  cell: (item: Item) => ReactNode;
};

type SelectableTableProps<Item extends { id: string; name: string }> = {
  items: Item[];
  selected: Set<string>;
  onSelectAll: (ids: Set<string>) => void;
  onToggle: (id: string, on: boolean) => void;
  /** The header checkbox's label ("Select all documents on this page"). */
  selectAllLabel: string;
  /** The name column: a row header that links to the item. */
  name: { className: string; cell: (item: Item) => ReactNode };
  columns: TableColumn<Item>[];
  /** The row's menu, in the last column. */
  actions: (item: Item) => ReactNode;
  /** What the table shows when it has no rows. */
  empty: ReactNode;
  rowTestId: string;
  className?: string;
};

/**
 * The history tables (My Documents, My Workspaces): a checkbox per row and one
 * for the page, the name as the row's header, the given columns, a menu per row.
 */
export function SelectableTable<Item extends { id: string; name: string }>(props: SelectableTableProps<Item>) {
  const { items, selected, columns } = props;
  const all = items.length > 0 && items.every((item) => selected.has(item.id));
  const some = items.some((item) => selected.has(item.id));
  return (
    <Table.Root variant="ghost" size="2" className={props.className}>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell width="44px">
            <Checkbox
              aria-label={props.selectAllLabel}
              checked={all ? true : some ? "indeterminate" : false}
              disabled={items.length === 0}
              onCheckedChange={(v) => props.onSelectAll(v === true ? new Set(items.map((item) => item.id)) : new Set())}
            />
          </Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
          {columns.map((column, i) => (
            <Table.ColumnHeaderCell key={i} justify={column.justify}>
              {column.header}
            </Table.ColumnHeaderCell>
          ))}
          <Table.ColumnHeaderCell width="52px">
            <span className="dc-visually-hidden">Actions</span>
          </Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {items.length === 0 ? (
          <Table.Row>
            <Table.Cell colSpan={columns.length + 3}>{props.empty}</Table.Cell>
          </Table.Row>
        ) : (
          items.map((item) => (
            <Table.Row key={item.id} align="center" data-testid={props.rowTestId} data-name={item.name} aria-selected={selected.has(item.id)}>
              <Table.Cell>
                <Checkbox aria-label={`Select ${item.name}`} checked={selected.has(item.id)} onCheckedChange={(v) => props.onToggle(item.id, v === true)} />
              </Table.Cell>
              <Table.RowHeaderCell className={props.name.className}>{props.name.cell(item)}</Table.RowHeaderCell>
              {columns.map((column, i) => (
                <Table.Cell key={i} justify={column.justify} className={column.className}>
                  {column.cell(item)}
                </Table.Cell>
              ))}
              <Table.Cell>{props.actions(item)}</Table.Cell>
            </Table.Row>
          ))
        )}
      </Table.Body>
    </Table.Root>
  );
}

/**
 * The history tables' search box: typing updates `?q=` on the server after a
 * short pause (and goes back to the first page). Answers the field's value.
 */
export function useSearchQuery(q: string): [string, (text: string) => void] {
  const [text, setText] = useState(q);
  const [params] = useSearchParams();
  const submit = useSubmit();
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    if (text.trim() === q) return;
    const timer = window.setTimeout(() => {
      const next = new URLSearchParams(params);
      if (text.trim()) next.set("q", text.trim());
      else next.delete("q");
      next.delete("page");
      submit(next, { method: "get", replace: true, preventScrollReset: true });
    }, 300);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  return [text, setText];
}
