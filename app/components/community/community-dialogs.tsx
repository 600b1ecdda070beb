import { AlertDialog, Badge, Button, Checkbox, Dialog, Flex, Text, TextArea, TextField } from "@radix-ui/themes";
import { useCallback, useRef, useState } from "react";
import { FilePlusIcon, WorkspaceIcon } from "#app/components/icons";
import { ScrollingListBox } from "#app/components/scrolling-list-box";
import { type FetchListPage, useInfiniteList } from "#app/components/use-infinite-list";
import { WorkspaceSwitcher } from "#app/components/workspace/workspace-switcher";
import { useCommunityAction } from "./use-community-action";

type Named = { id: string; name: string };

/** 'Join Community' with its confirmation (spec 001 §2). */
export function JoinCommunityButton({ privateCommunity, action }: { privateCommunity: boolean; action: ReturnType<typeof useCommunityAction> }) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger>
        <Button data-testid="join-community">Join Community</Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="440px">
        <AlertDialog.Title>Join Community</AlertDialog.Title>
        <AlertDialog.Description size="2">
          Are you sure you want to join this community?
          {privateCommunity ? " A moderator approves requests to join a private community." : ""}
        </AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </AlertDialog.Cancel>
          <Button onClick={() => action.submit("join")} loading={action.busy} data-testid="confirm-join">
            Join
          </Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}

/** 'Add Files' → 'Add New Files': the member's own ready documents; Add disabled with nothing chosen (spec 001 §5). */
export function AddFilesDialog({ communityId }: { communityId: string }) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const action = useCommunityAction(() => {
    setOpen(false);
    setChosen(new Set());
  });
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button variant="soft" data-testid="add-files">
          <FilePlusIcon size={16} /> Add Files
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="520px">
        <Dialog.Title>Add New Files</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          Choose documents of yours to share with this community. They stay yours; members can read them and use them in their workspaces.
        </Dialog.Description>
        <DocumentsToAdd
          communityId={communityId}
          chosen={chosen}
          onChoose={(id, on) =>
            setChosen((s) => {
              const next = new Set(s);
              if (on) next.add(id);
              else next.delete(id);
              return next;
            })
          }
        />
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button disabled={chosen.size === 0} loading={action.busy} onClick={() => action.submit("attach", { documentId: [...chosen] })} data-testid="confirm-add-files">
            Add
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** Documents fetched per page while 'Add New Files' is open. */
const ADD_FILES_PAGE = 20;

type DocumentToAdd = Named & { inCommunity: boolean };

/**
 * Mounted while the dialog is open: the member's ready documents a page at a
 * time, scrolled in their own box and searched on the server; those the
 * community holds already are shown as such and cannot be chosen again.
 */
function DocumentsToAdd({ communityId, chosen, onChoose }: { communityId: string; chosen: Set<string>; onChoose: (id: string, on: boolean) => void }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const fetchPage = useCallback<FetchListPage<DocumentToAdd>>(
    async (offset, search, limit) => {
      const params = new URLSearchParams({ limit: String(limit), offset: String(offset), search });
      const response = await fetch(`/api/communities/${encodeURIComponent(communityId)}/documents_to_add?${params}`, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error("Could not load your documents");
      const page = (await response.json()) as { documents: { document_id: string; document_name: string; in_community: boolean }[]; total: number };
      return { items: page.documents.map((d) => ({ id: d.document_id, name: d.document_name, inCommunity: d.in_community })), total: page.total };
    },
    [communityId],
  );
  const { items, loading, search, setSearch } = useInfiniteList({ pageSize: ADD_FILES_PAGE, fetchPage, scrollRoot: boxRef });
  return (
    <>
      <TextField.Root
        mt="3"
        type="search"
        placeholder="Search files by name"
        aria-label="Search your files by name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        data-testid="add-files-search"
      />
      <ScrollingListBox
        boxRef={boxRef}
        loading={loading}
        isEmpty={items.length === 0}
        empty={
          <Text size="2" color="gray" mt="3">
            {search.trim() ? "No matching files found." : "You have no ready documents to add. Upload one first."}
          </Text>
        }
        className="dc-community-pick"
        role="group"
        aria-label="Your documents"
        data-testid="add-files-list"
      >
        {items.map((d) => (
          <Text as="label" size="2" key={d.id} data-testid="add-files-item">
            <Flex gap="2" align="center" mt="2">
              <Checkbox disabled={d.inCommunity} checked={d.inCommunity || chosen.has(d.id)} onCheckedChange={(v) => onChoose(d.id, v === true)} />
              <span className="dc-ellipsis">{d.name}</span>
              {d.inCommunity ? (
                <Badge size="1" color="gray" highContrast className="dc-nowrap">
                  Already in this community
                </Badge>
              ) : null}
            </Flex>
          </Text>
        ))}
      </ScrollingListBox>
    </>
  );
}

/**
 * A member adds a community's document to one of their workspaces: not a
 * copy, a reference the access policy checks. The workspaces are the
 * switcher's, a page at a time as the list scrolls (decision 163), so a
 * community page never loads them all.
 */
export function AddToWorkspaceDialog({ documentId, documentName, hasWorkspaces }: { documentId: string; documentName: string; hasWorkspaces: boolean }) {
  const [open, setOpen] = useState(false);
  const [workspace, setWorkspace] = useState<Named | null>(null);
  const action = useCommunityAction(() => setOpen(false));
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button size="1" variant="soft" data-testid="add-to-workspace">
          <WorkspaceIcon size={14} /> Add to workspace
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="440px">
        <Dialog.Title>Add to workspace</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          Chat with “{documentName}” in one of your workspaces. Your chats stay private to you.
        </Dialog.Description>
        {!hasWorkspaces ? (
          <Text as="p" size="2" mt="3">
            You have no workspace yet. Create one from My Workspaces first.
          </Text>
        ) : (
          <Flex direction="column" gap="1" mt="3">
            <Text size="2" weight="medium" id="pick-workspace">
              Workspace
            </Text>
            <WorkspaceSwitcher
              currentId={workspace?.id ?? ""}
              onSwitch={(id, name) => setWorkspace({ id, name })}
              label="Choose a workspace"
              trigger={
                <Button type="button" variant="surface" color="gray" className="dc-community-workspace-pick" aria-labelledby="pick-workspace picked-workspace" data-testid="workspace-select">
                  <span id="picked-workspace" className="dc-ws-ellipsis">
                    {workspace?.name ?? "Choose a workspace"}
                  </span>
                </Button>
              }
            />
          </Flex>
        )}
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button
            disabled={!workspace}
            loading={action.busy}
            onClick={() => workspace && action.submit("add-to-workspace", { workspaceId: workspace.id, documentId })}
            data-testid="confirm-add-to-workspace"
          >
            Add
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** Report a resource to the moderators. */
export function ReportDialog({ resourceId, documentName }: { resourceId: string; documentName: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const action = useCommunityAction(() => {
    setOpen(false);
    setReason("");
  });
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button size="1" variant="ghost" color="gray" data-testid="report-resource">
          Report
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="440px">
        <Dialog.Title>Report “{documentName}”</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          Tell the moderators what is wrong with this document.
        </Dialog.Description>
        <TextArea mt="3" aria-label="Reason" value={reason} maxLength={500} onChange={(e) => setReason(e.currentTarget.value)} />
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button color="red" disabled={!reason.trim()} loading={action.busy} onClick={() => action.submit("report", { resourceId, reason })}>
            Report
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
