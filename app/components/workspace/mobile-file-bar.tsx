import { DropdownMenu, IconButton, Text } from "@radix-ui/themes";
import { ArrowLeftIcon, ChevronDownIcon, CloseIcon } from "#app/components/icons";
import type { WorkspaceDocument } from "#application/workspace/workspace-queries";

/** 1024 px and below, a file open: back to all files, the open files as a menu, close. */
export function MobileFileBar({
  activeDoc,
  tabs,
  openCount,
  onSelect,
  onClose,
}: {
  activeDoc: WorkspaceDocument;
  tabs: { id: string; name: string }[];
  openCount: number;
  onSelect: (id: string | null) => void;
  onClose: (id: string) => void;
}) {
  return (
    <div className="dc-wsx-mobile-only dc-wsx-filebar" data-testid="mobile-filebar">
      <IconButton variant="ghost" color="gray" aria-label="All files" onClick={() => onSelect(null)}>
        <ArrowLeftIcon size={18} />
      </IconButton>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger>
          <button type="button" className="dc-wsx-switch dc-wsx-switch--file" aria-label={`Open files, current: ${activeDoc.documentName}`}>
            <span className="dc-ws-ellipsis">{activeDoc.documentName}</span>
            {openCount > 1 ? <Text size="1" color="gray">+{openCount - 1}</Text> : null}
            <ChevronDownIcon size={14} />
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Content>
          {tabs.map((t) => (
            <DropdownMenu.Item key={t.id} onSelect={() => onSelect(t.id)}>
              {t.name}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Root>
      <IconButton variant="ghost" color="gray" aria-label={`Close ${activeDoc.documentName}`} onClick={() => onClose(activeDoc.documentId)}>
        <CloseIcon size={16} />
      </IconButton>
    </div>
  );
}
