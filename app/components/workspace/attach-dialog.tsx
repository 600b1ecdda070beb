import { Button, Dialog, Flex } from "@radix-ui/themes";
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { fetchDocuments } from "#app/components/library/use-infinite-documents";
import { useToast } from "#app/components/toast";
import { useInfiniteList } from "#app/components/use-infinite-list";
import { FilePicker } from "./file-picker";
import { apiJson, attachFailureMessage, type AttachResultView } from "./types";
import { useCsrfToken } from "#app/components/use-csrf";

/** Files fetched per page while the dialog is open. */
const ATTACH_PAGE = 20;

/**
 * Attach Files (spec 001 §2/§5/§8): pick more of the user's files; Attach is
 * disabled with no selection; a failed document shows 'Failed to attach
 * document: {reason}' and the dialog stays open. The user's files arrive a
 * page at a time once it opens, searched on the server.
 */
export function AttachDialog({
  open,
  onOpenChange,
  workspaceId,
  attachedIds,
  onAttached,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspaceId: string;
  attachedIds: string[];
  onAttached: (ids: string[]) => void;
}) {
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const csrfToken = useCsrfToken();
  const revalidator = useRevalidator();

  useEffect(() => {
    if (!open) setPicked([]);
  }, [open]);

  const attach = async () => {
    if (picked.length === 0) return;
    setBusy(true);
    try {
      const { results } = await apiJson<{ results: AttachResultView[] }>(`/api/workspaces/${encodeURIComponent(workspaceId)}/attach`, {
        method: "POST",
        body: { documentIds: picked },
        csrfToken,
      });
      const failed = results.filter((r) => r.status !== "ATTACH_SUCCESS");
      const ok = results.filter((r) => r.status === "ATTACH_SUCCESS").map((r) => r.documentId);
      if (ok.length > 0) {
        toast.push({ type: "success", message: ok.length === 1 ? "Document attached" : `${ok.length} documents attached` });
        onAttached(ok);
        revalidator.revalidate();
      }
      if (failed.length > 0) {
        for (const r of failed) toast.push({ type: "error", message: attachFailureMessage(r.reason) });
        setPicked(failed.map((r) => r.documentId));
        return;
      }
      onOpenChange(false);
    } catch (error) {
      toast.push({ type: "error", message: `Failed to attach documents: ${error instanceof Error ? error.message : "Unknown reason"}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="560px" data-testid="attach-dialog">
        <Dialog.Title>Attach Files</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="4">
          Add more of your uploaded files to this workspace. Files still in progress or failed cannot be added.
        </Dialog.Description>
        <AttachableFiles
          exclude={attachedIds}
          picked={picked}
          onToggle={(id, on) => setPicked((current) => (on ? [...current.filter((x) => x !== id), id] : current.filter((x) => x !== id)))}
          onLimit={() => toast.push({ type: "error", message: "Can not upload more than 10 files" })}
        />
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button onClick={attach} disabled={picked.length === 0} loading={busy} data-testid="attach-submit">
            Attach
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** Mounted while the dialog is open: the picker over the user's files, paged and searched on the server. */
function AttachableFiles(props: { exclude: string[]; picked: string[]; onToggle: (id: string, on: boolean) => void; onLimit: () => void }) {
  const listRef = useRef<HTMLUListElement>(null);
  const { items, loading, search, setSearch } = useInfiniteList({ pageSize: ATTACH_PAGE, fetchPage: fetchDocuments, scrollRoot: listRef });
  return <FilePicker {...props} documents={items} server={{ search, onSearch: setSearch, loading, listRef }} />;
}
