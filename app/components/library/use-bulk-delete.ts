import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useToast } from "#app/components/toast";
import { useCsrfToken } from "#app/components/use-csrf";

type DeleteResult = { ok: boolean; message: string };
type PendingDelete = { ids: string[]; message: string } | null;

/**
 * Row selection and "delete" for the My Documents and My Workspaces tables
 * (spec 000 §4): ticking rows, the confirmation worded for one row, one
 * selected item or several, the page's `intent=delete` action, and its toast.
 * A successful delete clears the selection.
 */
export function useBulkDelete(noun: "document" | "workspace") {
  const fetcher = useFetcher<DeleteResult>();
  const toast = useToast();
  const csrfToken = useCsrfToken();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pendingDelete, setPendingDelete] = useState<PendingDelete>(null);

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    toast.push({ type: result.ok ? "success" : "error", message: result.message });
    if (result.ok) {
      setSelected(new Set());
      setPendingDelete(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data, fetcher.state]);

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  /** Asks before deleting; `fromRow` is a row menu's own delete ("this document"). */
  const askDelete = (ids: string[], fromRow = false) => {
    if (ids.length === 0) return;
    const message = fromRow
      ? `Are you sure you want to delete this ${noun}?`
      : ids.length === 1
        ? `Are you sure you want to delete the ${noun}?`
        : `Are you sure you want to delete the selected ${noun}s?`;
    setPendingDelete({ ids, message });
  };

  const confirmDelete = () => {
    if (!pendingDelete) return;
    const form = new FormData();
    form.set("csrf", csrfToken);
    form.set("intent", "delete");
    for (const id of pendingDelete.ids) form.append("id", id);
    fetcher.submit(form, { method: "post" });
  };

  /** Props for the page's ConfirmDialog. */
  const confirmProps = {
    open: pendingDelete !== null,
    message: pendingDelete?.message ?? "",
    busy: fetcher.state !== "idle",
    onConfirm: confirmDelete,
    onOpenChange: (open: boolean) => (open ? undefined : setPendingDelete(null)),
  };

  return { selected, setSelected, toggle, askDelete, confirmProps };
}
