import { Popover, Text, TextField } from "@radix-ui/themes";
import { useMemo, useState, type ReactNode } from "react";
import { SearchIcon } from "#app/components/icons";

export type SwitcherItem = { id: string; name: string; status: string };

/** Workspace switcher popover: 'Search Workspace Name', case-insensitive; 'No Workspace Found' (spec 001 §2). */
export function WorkspaceSwitcher({
  items,
  currentId,
  onSwitch,
  trigger,
}: {
  items: SwitcherItem[];
  currentId: string;
  onSwitch: (id: string) => void;
  trigger: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const visible = useMemo(() => {
    const q = search.trim().toLowerCase();
    return items.filter((w) => !q || w.name.toLowerCase().includes(q));
  }, [items, search]);
  return (
    <Popover.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setSearch("");
      }}
    >
      <Popover.Trigger>{trigger}</Popover.Trigger>
      <Popover.Content width="280px" align="start" className="dc-wsx-switcher" aria-label="Switch workspace">
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
        {visible.length === 0 ? (
          <Text as="p" size="2" color="gray" className="dc-wsx-switcher__empty">
            No Workspace Found
          </Text>
        ) : (
          <ul className="dc-wsx-switcher__list" aria-label="Workspaces">
            {visible.map((w) => (
              <li key={w.id}>
                <button
                  type="button"
                  className={`dc-wsx-switcher__item${w.id === currentId ? " is-current" : ""}`}
                  aria-current={w.id === currentId ? "true" : undefined}
                  disabled={w.status !== "ACTIVE"}
                  onClick={() => {
                    setOpen(false);
                    if (w.id !== currentId) onSwitch(w.id);
                  }}
                  data-testid="switcher-item"
                >
                  <span className="dc-ws-ellipsis">{w.name}</span>
                  {w.status !== "ACTIVE" ? <Text size="1" color="gray">{w.status === "CREATING" ? "In Progress" : "Failed"}</Text> : null}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Popover.Content>
    </Popover.Root>
  );
}
