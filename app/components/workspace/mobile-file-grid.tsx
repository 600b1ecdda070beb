import { DropdownMenu, Heading, IconButton, Text } from "@radix-ui/themes";
import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { DotsIcon, FileIcon } from "#app/components/icons";
import { ConfirmDialog } from "#app/components/library/confirm-dialog";
import { useToast } from "#app/components/toast";
import { useCsrfToken } from "#app/components/use-csrf";
import { documentDownloadUrl } from "./document-frame";
import type { WorkspaceDocument } from "#application/workspace/workspace-queries";

/** Mobile file cards show this many characters of a name. */
const MOBILE_NAME_MAX = 15;

/** 1024 px and below, no file open: the workspace's files as cards, each with Open or Download, and Delete (spec 001 §2). */
export function MobileFileGrid({ workspaceName, docs, onOpenFile }: { workspaceName: string; docs: WorkspaceDocument[]; onOpenFile: (id: string) => void }) {
  const [pendingDelete, setPendingDelete] = useState<WorkspaceDocument | null>(null);
  const [busy, setBusy] = useState(false);
  const csrfToken = useCsrfToken();
  const toast = useToast();
  const revalidator = useRevalidator();

  // Deleting removes the document from the library, and so from every workspace that holds it.
  const confirmDelete = async () => {
    if (!pendingDelete) return;
    setBusy(true);
    const response = await fetch(`/api/documents/${encodeURIComponent(pendingDelete.documentId)}`, {
      method: "DELETE",
      headers: { "X-CSRF-Token": csrfToken, Accept: "application/json" },
    }).catch(() => null);
    setBusy(false);
    if (response?.ok) {
      setPendingDelete(null);
      toast.push({ type: "success", message: "Document deleted" });
      revalidator.revalidate();
    } else {
      const body = (await response?.json().catch(() => null)) as { message?: string } | null;
      toast.push({ type: "error", message: body?.message ?? "Something went wrong" });
    }
  };

  return (
    <section className="dc-wsx-mobile-only dc-wsx-grid-wrap" aria-label="Workspace files">
      <Heading as="h2" size="4" className="dc-wsx-grid-title">
        {workspaceName}
      </Heading>
      {docs.length === 0 ? (
        <Text as="p" size="2" color="gray">
          Please add files to chat
        </Text>
      ) : (
        <ul className="dc-wsx-grid" data-testid="file-grid">
          {docs.map((d) => (
            <li key={d.documentId} className="dc-wsx-fcard" data-testid="file-card" data-name={d.documentName}>
              <button type="button" className="dc-wsx-fcard__open" onClick={() => onOpenFile(d.documentId)} title={d.documentName}>
                <span className="dc-wsx-fcard__icon" aria-hidden="true">
                  <FileIcon size={22} />
                </span>
                <span className="dc-wsx-fcard__name">
                  {d.documentName.length > MOBILE_NAME_MAX ? `${d.documentName.slice(0, MOBILE_NAME_MAX)}…` : d.documentName}
                </span>
                <Text size="1" color="gray">
                  {(d.kind ?? d.documentType).toUpperCase()} · {d.pageCount} {d.pageCount === 1 ? "page" : "pages"}
                </Text>
              </button>
              <DropdownMenu.Root>
                <DropdownMenu.Trigger>
                  <IconButton variant="ghost" color="gray" size="1" className="dc-wsx-fcard__menu" aria-label={`Actions for ${d.documentName}`}>
                    <DotsIcon size={16} />
                  </IconButton>
                </DropdownMenu.Trigger>
                <DropdownMenu.Content align="end">
                  <DropdownMenu.Item onSelect={() => onOpenFile(d.documentId)}>Open</DropdownMenu.Item>
                  <DropdownMenu.Item asChild>
                    <a href={documentDownloadUrl(d.documentId)} download>
                      Download
                    </a>
                  </DropdownMenu.Item>
                  <DropdownMenu.Separator />
                  <DropdownMenu.Item color="red" onSelect={() => setPendingDelete(d)}>
                    Delete
                  </DropdownMenu.Item>
                </DropdownMenu.Content>
              </DropdownMenu.Root>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={pendingDelete !== null}
        title="Delete document"
        message={`Are you sure you want to delete ${pendingDelete?.documentName ?? "this document"}? It leaves your library and every workspace.`}
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onOpenChange={(open) => (open ? undefined : setPendingDelete(null))}
      />
    </section>
  );
}
