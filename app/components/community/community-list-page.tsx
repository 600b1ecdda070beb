import { Badge, Button, Callout, Flex, Heading, IconButton, Table, Text, TextField, Checkbox } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { Link, useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import type { CommunityListItem } from "#application/community/community-queries";
import type { RemovalNoticeReadModel } from "#projections/community/communities.queries";
import { ChevronLeftIcon, ChevronRightIcon, CommunityIcon, InfoIcon, RefreshIcon, TrashIcon } from "#app/components/icons";
import { ConfirmDialog } from "#app/components/library/confirm-dialog";
import { formatDateTime } from "#app/components/library/format";
import { useSearchQuery } from "#app/components/selectable-table";
import { useToast } from "#app/components/toast";
import { useCsrfToken } from "#app/components/use-csrf";
import { CreateCommunityDialog } from "./create-community-dialog";
import type { CommunityListAction, CommunityListKind } from "./community-list.server";

/** Spec 001 §9: community tables show 10 rows a page. */
const PAGE_SIZE = 10;

const TITLES: Record<CommunityListKind, { title: string; path: string; lead: string }> = {
  public: { title: "Public Communities", path: "/community/publicCommunity", lead: "Libraries anyone can join: documents other people contributed, free to use in your workspaces." },
  mine: { title: "My Communities", path: "/community/myCommunity", lead: "Communities you own, moderate or belong to." },
};

export function CommunityListPage(props: {
  kind: CommunityListKind;
  q: string;
  communities: CommunityListItem[];
  notices: RemovalNoticeReadModel[];
  loadError: string | null;
}) {
  const { kind, q, communities, loadError } = props;
  const { title, path, lead } = TITLES[kind];
  const [search, setSearch] = useSearchQuery(q);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<string[] | null>(null);
  const revalidator = useRevalidator();
  const fetcher = useFetcher<CommunityListAction>();
  const csrf = useCsrfToken();
  const toast = useToast();

  const pages = Math.max(1, Math.ceil(communities.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const rows = communities.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const byId = useMemo(() => new Map(communities.map((c) => [c.communityId, c])), [communities]);
  useEffect(() => setPage(1), [q]);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || result.intent !== "delete") return;
    toast.push({ type: result.ok ? "success" : "error", message: result.message });
    if (result.ok) setSelected(new Set());
    setConfirm(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data, fetcher.state]);

  const askDelete = () => {
    const ids = [...selected].filter((id) => byId.has(id));
    if (ids.length === 0) return;
    if (ids.some((id) => byId.get(id)?.role !== "OWNER")) {
      toast.push({ type: "error", message: "Only a community's owner can delete it." });
      return;
    }
    setConfirm(ids);
  };
  const doDelete = () => {
    if (!confirm) return;
    const form = new FormData();
    form.set("csrf", csrf);
    form.set("intent", "delete");
    for (const id of confirm) form.append("id", id);
    fetcher.submit(form, { method: "post" });
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allOnPage = rows.length > 0 && rows.every((c) => selected.has(c.communityId));

  const emptyText = loadError ?? (q ? "No matching Community found." : kind === "public" ? "No Public Community Created yet." : "No matching Community found.");

  return (
    <div className="dc-lib-page dc-community-page">
      <header className="dc-lib-page__header">
        <div>
          <Heading as="h1" size={{ initial: "6", sm: "7" }}>
            {title}
          </Heading>
          <Text as="p" size="3" color="gray" mt="1">
            {lead}
          </Text>
        </div>
      </header>

      {props.notices.length > 0 ? (
        <Callout.Root color="amber" data-testid="removal-notices">
          <Callout.Icon>
            <InfoIcon />
          </Callout.Icon>
          <Callout.Text>
            {props.notices.map((n) => (
              <span key={n.id} className="dc-block">
                A moderator removed “{n.documentName}” from {n.communityName} on {formatDateTime(n.removedAt)}.
              </span>
            ))}
          </Callout.Text>
        </Callout.Root>
      ) : null}

      <section className="dc-lib-card dc-doc-table" aria-label={title}>
        <div className="dc-doc-toolbar">
          <form role="search" className="dc-doc-toolbar__search" onSubmit={(e) => e.preventDefault()}>
            <TextField.Root type="search" name="q" placeholder="Search Name" aria-label="Search Name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          </form>
          <Flex gap="2" wrap="wrap" align="center">
            <Text size="2" color="gray" aria-live="polite" className="dc-doc-toolbar__count">
              {selected.size > 0 ? `${selected.size} selected` : ""}
            </Text>
            <Tooltip content="Delete selected">
              <IconButton variant="soft" color="red" aria-label="Delete selected" disabled={selected.size === 0} onClick={askDelete} data-testid="delete-selected">
                <TrashIcon />
              </IconButton>
            </Tooltip>
            <Tooltip content="Refresh">
              <IconButton variant="soft" color="gray" aria-label="Refresh" onClick={() => revalidator.revalidate()} loading={revalidator.state !== "idle"} data-testid="refresh">
                <RefreshIcon />
              </IconButton>
            </Tooltip>
            <CreateCommunityDialog detailBase={path} />
          </Flex>
        </div>
        <div className="dc-community-table">
          <Table.Root variant="ghost" size="2" className="dc-doc-table__table dc-stacking-table">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell width="44px">
                  <Checkbox
                    aria-label="Select all communities on this page"
                    checked={allOnPage}
                    disabled={rows.length === 0}
                    onCheckedChange={(v) => setSelected(v === true ? new Set(rows.map((c) => c.communityId)) : new Set())}
                  />
                </Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Community Name</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Created At</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Created By</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.length === 0 ? (
                <Table.Row>
                  <Table.Cell colSpan={5}>
                    <div className="dc-empty" data-testid="communities-empty">
                      <CommunityIcon size={28} />
                      <Text size="2" color="gray">
                        {emptyText}
                      </Text>
                    </div>
                  </Table.Cell>
                </Table.Row>
              ) : (
                rows.map((c) => (
                  <Table.Row key={c.communityId} align="center" data-testid="community-row" data-name={c.communityName} aria-selected={selected.has(c.communityId)}>
                    <Table.Cell>
                      <Checkbox aria-label={`Select ${c.communityName}`} checked={selected.has(c.communityId)} onCheckedChange={(v) => toggle(c.communityId, v === true)} />
                    </Table.Cell>
                    <Table.RowHeaderCell className="dc-doc-table__name">
                      {/* Rows open the detail and pass the origin path (spec 001 §2). */}
                      <Link to={`${path}/${c.communityId}`} state={{ from: path }} className="dc-doc-link" title={c.communityName}>
                        {c.communityName}
                      </Link>
                      <Flex gap="1" mt="1">
                        {c.visibility === "PRIVATE" ? (
                          <Badge highContrast color="gray" size="1">
                            Private
                          </Badge>
                        ) : null}
                        {c.role !== "VIEWER" ? (
                          <Badge highContrast color="blue" size="1">
                            {c.role.charAt(0) + c.role.slice(1).toLowerCase()}
                          </Badge>
                        ) : c.requested ? (
                          <Badge highContrast color="amber" size="1">
                            Join requested
                          </Badge>
                        ) : null}
                      </Flex>
                    </Table.RowHeaderCell>
                    {/* data-label: on a phone the row becomes a card and each cell says what it is. */}
                    <Table.Cell data-label="Status">
                      <Badge highContrast color={c.status === "Active" ? "green" : "gray"}>{c.status}</Badge>
                    </Table.Cell>
                    <Table.Cell className="dc-nowrap" data-label="Created At">
                      {formatDateTime(c.createdAt)}
                    </Table.Cell>
                    <Table.Cell data-label="Created By">{c.creatorName}</Table.Cell>
                  </Table.Row>
                ))
              )}
            </Table.Body>
          </Table.Root>
        </div>
        {/* An empty list has no footer: its empty state says so, and "0 of 0" is nobody's way of saying it. */}
        {communities.length > 0 ? (
          <div className="dc-pagination">
            <Text size="2" color="gray" data-testid="range">
              {(current - 1) * PAGE_SIZE + 1}–{Math.min(communities.length, current * PAGE_SIZE)} of {communities.length}
            </Text>
            <nav aria-label="Pagination">
              <Flex gap="1" align="center">
                <IconButton variant="soft" color="gray" aria-label="Previous page" disabled={current <= 1} onClick={() => setPage(current - 1)}>
                  <ChevronLeftIcon size={16} />
                </IconButton>
                <Text size="2" className="dc-nowrap">
                  Page {current} of {pages}
                </Text>
                <IconButton variant="soft" color="gray" aria-label="Next page" disabled={current >= pages} onClick={() => setPage(current + 1)}>
                  <ChevronRightIcon size={16} />
                </IconButton>
              </Flex>
            </nav>
          </div>
        ) : null}
      </section>
      <ConfirmDialog
        open={confirm !== null}
        title="Delete communities"
        message={confirm && confirm.length > 1 ? "Are you sure you want to delete the selected communities?" : "Are you sure you want to delete the community?"}
        busy={fetcher.state !== "idle"}
        onConfirm={doDelete}
        onOpenChange={(open) => (open ? undefined : setConfirm(null))}
      />
    </div>
  );
}
