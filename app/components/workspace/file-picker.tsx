import { Badge, Checkbox, Flex, Spinner, Text, TextField } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { type RefObject, useMemo, useState } from "react";
import { FileIcon } from "#app/components/icons";
import { pickState, type PickableDocument } from "./types";

export const MAX_PICKED = 10;

/**
 * Pick documents from the user's uploads (spec 000 §2/§5): in-progress and
 * failed files cannot be picked; picking again un-picks; at most 10; search is
 * case-insensitive on part of the name. With `server`, the documents are a
 * page the server searched (the attach dialog), scrolling in `listRef`.
 */
export function FilePicker({
  documents,
  picked,
  onToggle,
  exclude = [],
  max = MAX_PICKED,
  onLimit,
  label = "Your uploaded files",
  server,
}: {
  documents: PickableDocument[];
  picked: string[];
  onToggle: (id: string, on: boolean) => void;
  exclude?: string[];
  max?: number;
  onLimit: () => void;
  label?: string;
  server?: { search: string; onSearch: (text: string) => void; loading: boolean; listRef: RefObject<HTMLUListElement> };
}) {
  const [localSearch, setLocalSearch] = useState("");
  const search = server?.search ?? localSearch;
  const setSearch = server?.onSearch ?? setLocalSearch;
  const visible = useMemo(() => {
    const q = server ? "" : search.trim().toLowerCase();
    return documents.filter((d) => !exclude.includes(d.id) && (!q || d.name.toLowerCase().includes(q)));
  }, [documents, exclude, search, server]);
  const available = server && search.trim() ? visible : documents.filter((d) => !exclude.includes(d.id));
  const loading = server?.loading ?? false;

  return (
    <Flex direction="column" gap="3" className="dc-ws-picker">
      <Flex align="center" justify="between" gap="3" wrap="wrap">
        <TextField.Root
          type="search"
          placeholder="Search files by name"
          aria-label="Search files by name"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          className="dc-ws-picker__search"
          data-testid="picker-search"
        />
        <Text size="2" color="gray" aria-live="polite" data-testid="picked-count">
          {picked.length} of {max} selected
        </Text>
      </Flex>
      {available.length === 0 && loading ? (
        <Flex justify="center" p="4">
          <Spinner />
        </Flex>
      ) : available.length === 0 && !(server && search.trim()) ? (
        <div className="dc-ws-empty">
          <FileIcon size={28} />
          <Text size="2" color="gray">
            You have no uploaded files yet.{" "}
            <Link to="/upload/files" className="dc-ws-link">
              Upload files
            </Link>{" "}
            first.
          </Text>
        </div>
      ) : visible.length === 0 ? (
        <div className="dc-ws-empty">
          <Text size="2" color="gray">
            No matching files found.
          </Text>
        </div>
      ) : (
        <ul className="dc-ws-picker__list" aria-label={label} ref={server?.listRef} aria-busy={loading}>
          {visible.map((d) => {
            const state = pickState(d.status);
            const on = picked.includes(d.id);
            const id = `pick-${d.id}`;
            return (
              <li key={d.id} className={`dc-ws-picker__item${on ? " is-picked" : ""}${state.pickable ? "" : " is-disabled"}`} data-testid="picker-item" data-name={d.name}>
                <Checkbox
                  id={id}
                  checked={on}
                  disabled={!state.pickable}
                  onCheckedChange={(v) => {
                    if (v === true && !on && picked.length >= max) {
                      onLimit();
                      return;
                    }
                    onToggle(d.id, v === true);
                  }}
                />
                <label htmlFor={id} className="dc-ws-picker__label">
                  <FileIcon size={16} />
                  <span className="dc-ws-ellipsis" title={d.name}>
                    {d.name}
                  </span>
                </label>
                {state.label ? (
                  <Badge color={state.label === "Failed" ? "red" : "amber"} variant="soft" radius="full" highContrast>
                    {state.label}
                  </Badge>
                ) : (
                  <Text size="1" color="gray" className="dc-nowrap">
                    {d.pageCount > 0 ? `${d.pageCount} ${d.pageCount === 1 ? "page" : "pages"}` : (d.kind ?? "").toUpperCase()}
                  </Text>
                )}
              </li>
            );
          })}
          {loading ? (
            <li className="dc-ws-picker__loading">
              <Spinner size="1" />
            </li>
          ) : null}
        </ul>
      )}
    </Flex>
  );
}
