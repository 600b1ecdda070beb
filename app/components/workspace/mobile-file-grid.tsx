import { DropdownMenu, Heading, IconButton, Text } from "@radix-ui/themes";
import { useState } from "react";
import { DotsIcon, FileIcon } from "#app/components/icons";
import { documentDownloadUrl } from "./document-frame";
import type { WorkspaceDocument } from "#application/workspace/workspace-queries";

/** Mobile file cards show this many characters of a name. */
const MOBILE_NAME_MAX = 15;

/** 1024 px and below, no file open: the workspace's files as cards, each with Open, Download and Remove from view. */
export function MobileFileGrid({ workspaceName, docs, onOpenFile }: { workspaceName: string; docs: WorkspaceDocument[]; onOpenFile: (id: string) => void }) {
  const [hidden, setHidden] = useState<string[]>([]);
  const cardDocs = docs.filter((d) => !hidden.includes(d.documentId));
  return (
    <section className="dc-wsx-mobile-only dc-wsx-grid-wrap" aria-label="Workspace files">
      <Heading as="h2" size="4" className="dc-wsx-grid-title">
        {workspaceName}
      </Heading>
      {cardDocs.length === 0 ? (
        <Text as="p" size="2" color="gray">
          {docs.length === 0 ? "Please add files to chat" : "All files are hidden from this view. Reload to show them again."}
        </Text>
      ) : (
        <ul className="dc-wsx-grid" data-testid="file-grid">
          {cardDocs.map((d) => (
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
                  <DropdownMenu.Item color="red" onSelect={() => setHidden((h) => [...h, d.documentId])}>
                    Remove from view
                  </DropdownMenu.Item>
                </DropdownMenu.Content>
              </DropdownMenu.Root>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
