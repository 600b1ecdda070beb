import { Popover, Spinner, Text, TextField } from "@radix-ui/themes";
import { useRef, useState, type ReactNode } from "react";
import { SearchIcon } from "#app/components/icons";
import { useInfiniteList } from "#app/components/use-infinite-list";
import { fetchWorkspaces } from "./fetch-workspaces";

/** Workspaces fetched per page while the switcher is open. */
const SWITCHER_PAGE = 20;

/**
 * Workspace switcher popover: 'Search Workspace Name', case-insensitive; 'No
 * Workspace Found' (spec 001 §2). Also the picker of a workspace elsewhere (a
 * community's 'Add to workspace'), which names itself with `label`.
 */
export function WorkspaceSwitcher({
  currentId,
  onSwitch,
  trigger,
  label = "Switch workspace",
}: {
  currentId: string;
  onSwitch: (id: string, name: string) => void;
  trigger: ReactNode;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger>{trigger}</Popover.Trigger>
      <Popover.Content width="280px" align="start" className="dc-wsx-switcher" aria-label={label}>
        <SwitcherList
          currentId={currentId}
          onSwitch={(id, name) => {
            setOpen(false);
            if (id !== currentId) onSwitch(id, name);
          }}
        />
      </Popover.Content>
    </Popover.Root>
  );
}

/** Mounted while the popover is open: the owner's workspaces a page at a time, searched on the server. */
function SwitcherList({ currentId, onSwitch }: { currentId: string; onSwitch: (id: string, name: string) => void }) {
  const listRef = useRef<HTMLUListElement>(null);
  const { items, loading, search, setSearch } = useInfiniteList({ pageSize: SWITCHER_PAGE, fetchPage: fetchWorkspaces, scrollRoot: listRef });
  return (
    <>
      <TextField.Root
        placeholder="Search Workspace Name"
        aria-label="Search Workspace Name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        autoFocus
        data-testid="switcher-search"
      >
        <TextField.Slot>
          <SearchIcon size={14} />
        </TextField.Slot>
      </TextField.Root>
      {items.length === 0 && !loading ? (
        <Text as="p" size="2" color="gray" className="dc-wsx-switcher__empty">
          No Workspace Found
        </Text>
      ) : (
        <ul className="dc-wsx-switcher__list" aria-label="Workspaces" ref={listRef} aria-busy={loading}>
          {items.map((w) => (
            <li key={w.id}>
              <button
                type="button"
                className={`dc-wsx-switcher__item${w.id === currentId ? " is-current" : ""}`}
                aria-current={w.id === currentId ? "true" : undefined}
                disabled={w.status !== "ACTIVE"}
                onClick={() => onSwitch(w.id, w.name)}
                data-testid="switcher-item"
              >
                <span className="dc-ws-ellipsis">{w.name}</span>
                {w.status !== "ACTIVE" ? <Text size="1" color="gray">{w.status === "CREATING" ? "In Progress" : "Failed"}</Text> : null}
              </button>
            </li>
          ))}
          {loading ? (
            <li className="dc-wsx-switcher__loading">
              <Spinner size="1" />
            </li>
          ) : null}
        </ul>
      )}
    </>
  );
}
