import { DropdownMenu, IconButton } from "@radix-ui/themes";
import { useNavigate } from "@remix-run/react";
import { DotsIcon } from "#app/components/icons";
import type { LibraryDocument } from "./document-view";
import { downloadUrl } from "./document-view";

/** Row and card menu: Open, Download, Delete (spec 000 §2 My Documents). */
export function DocumentMenu({ document, onDelete }: { document: LibraryDocument; onDelete: (document: LibraryDocument) => void }) {
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" color="gray" aria-label={`Actions for ${document.name}`} data-testid="row-menu">
          <DotsIcon />
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end">
        <DropdownMenu.Item onSelect={() => navigate(`/document/${document.id}`)}>Open</DropdownMenu.Item>
        <DropdownMenu.Item asChild>
          <a href={downloadUrl(document.id)} download>
            Download
          </a>
        </DropdownMenu.Item>
        <DropdownMenu.Separator />
        <DropdownMenu.Item color="red" onSelect={() => onDelete(document)}>
          Delete
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
