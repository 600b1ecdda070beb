import { Badge, Button, Card, DropdownMenu, Flex, Heading, IconButton, Spinner, Text, TextField } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { ListRange } from "#app/components/list-range";
import { useHydrated } from "#app/components/use-hydrated";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo } from "react";
import { DotsIcon, PlusIcon, RefreshIcon, TrashIcon, WorkspaceIcon } from "#app/components/icons";
import { ConfirmDialog } from "#app/components/library/confirm-dialog";
import { SelectableTable, useSearchQuery } from "#app/components/selectable-table";
import { formatDateTime } from "#app/components/library/format";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { toSummary } from "#app/components/workspace/api.server";
import type { WorkspaceSummary } from "#app/components/workspace/types";
import workspaceStyles from "#app/components/workspace/workspace.css";
import { isDomainError } from "#domain/shared/domain-error";
import { useBulkDelete } from "#app/components/library/use-bulk-delete";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";
import { HistorySwitch } from "#app/components/library/history-switch";
import { pageSizeFrom, RowsPerPage } from "#app/components/rows-per-page";
import { useInfiniteList } from "#app/components/use-infinite-list";
import { fetchWorkspaces } from "#app/components/workspace/fetch-workspaces";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: workspaceStyles }];
export const meta: MetaFunction = () => [{ title: "My Workspaces | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "History", page: "My Workspaces" } };

/** Spec 000 §9: history tables page by 5, 10 or 15 rows (rows-per-page.tsx); the card list by 10. */
const CARD_PAGE = 10;
const POLL_MS = 3000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const size = pageSizeFrom(url.searchParams.get("size"));
  const { workspaceQueries } = await getServices();
  try {
    // The first page of each list; the rest arrive as the reader scrolls (spec 000 §2, §9).
    const [{ workspaces, total }, all] = await Promise.all([workspaceQueries.list(user.id, { search: q, limit: Math.max(size, CARD_PAGE) }), workspaceQueries.count(user.id)]);
    const summaries = workspaces.map(toSummary);
    return { q, size, total, all, workspaces: summaries.slice(0, size), cardsFirst: summaries.slice(0, CARD_PAGE), loadError: null as string | null };
  } catch (error) {
    // GET_WORKSPACE_FAILURE: the server's message becomes the empty-table label (spec 000 §2).
    if (isDomainError(error)) return { q, size, total: 0, all: 0, workspaces: [] as WorkspaceSummary[], cardsFirst: [] as WorkspaceSummary[], loadError: error.message };
    throw error;
  }
}

type ActionResult = { ok: boolean; message: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const ids = formData.getAll("id").filter((v): v is string => typeof v === "string" && v.length > 0);
  if (formData.get("intent") !== "delete" || ids.length === 0) {
    return data<ActionResult>({ ok: false, message: "Select at least one workspace." }, { status: 400 });
  }
  try {
    const { workspaces } = await getServices();
    await workspaces.delete(user.id, ids, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (isDomainError(error)) return data<ActionResult>({ ok: false, message: error.message }, { status: error.code === "WORKSPACE_NOT_EXIST" ? 404 : 400 });
    throw error;
  }
  return data<ActionResult>({ ok: true, message: ids.length === 1 ? "Workspace deleted" : `${ids.length} workspaces deleted` });
}

function WorkspaceStatus({ ws, mobile = false }: { ws: WorkspaceSummary; mobile?: boolean }) {
  // Mobile: Active, otherwise In Progress (spec 000 §4).
  if (mobile || ws.status !== "FAILED") {
    const active = ws.status === "ACTIVE";
    return (
      <Badge color={active ? "green" : "amber"} variant="soft" radius="full" highContrast data-testid="ws-status" data-status={ws.status}>
        {active ? "Active" : "In Progress"}
      </Badge>
    );
  }
  return (
    <Tooltip content={ws.failureReason || "Failed to launch workspace"}>
      <Badge color="red" variant="soft" radius="full" highContrast data-testid="ws-status" data-status={ws.status} tabIndex={0}>
        Failed
      </Badge>
    </Tooltip>
  );
}

export default function MyWorkspacesPage() {
  const hydrated = useHydrated();
  const { q, size, total, workspaces: firstPage, cardsFirst, all, loadError } = useLoaderData<typeof loader>();
  const isDesktop = hydrated && window.matchMedia("(min-width: 1025px)").matches;
  // Both lists are rendered and CSS shows one; only the visible one loads pages as the window scrolls.
  const table = useInfiniteList({ first: firstPage, total, q, pageSize: size, fetchPage: fetchWorkspaces, active: isDesktop });
  const cards = useInfiniteList({ first: cardsFirst, total, q, pageSize: CARD_PAGE, fetchPage: fetchWorkspaces, active: hydrated && !isDesktop });
  const workspaces = table.items;
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  const { selected, setSelected, toggle, askDelete, confirmProps } = useBulkDelete("workspace");
  const [searchText, setSearchText] = useSearchQuery(q);

  useEffect(() => setSelected((current) => new Set([...current].filter((id) => workspaces.some((w) => w.id === id)))), [workspaces]);

  // Launching workspaces turn Active on their own: refresh while any is in progress.
  const launching = [...workspaces, ...cards.items].some((w) => w.status === "CREATING");
  useEffect(() => {
    if (!launching) return;
    const timer = window.setInterval(() => revalidator.revalidate(), POLL_MS);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [launching]);

  const selectedWs = useMemo(() => workspaces.filter((w) => selected.has(w.id)), [workspaces, selected]);
  const someSelected = selectedWs.length > 0;

  const emptyLabel = loadError ?? (q || all > 0 ? "No matching workspaces found." : "No Workspace Created yet.");
  const searchField = (id: string, value: string, onChange: (text: string) => void) => (
    <TextField.Root
      id={id}
      type="search"
      placeholder="Search Workspace Name"
      aria-label="Search workspaces by name"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      className="dc-ws-search"
    />
  );
  const sizeHref = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("size", String(n));
    return `?${next}`;
  };

  return (
    <div className="dc-ws-page" data-ws-hydrated={hydrated}>
      <header className="dc-ws-page__header">
        <div>
          <Heading as="h1" size={{ initial: "6", sm: "7" }}>
            My Workspaces
          </Heading>
          <Text as="p" size="3" color="gray" mt="1">
            Your document groups and their chats, most recently used first.
          </Text>
        </div>
      </header>

      {/* Desktop (≥ 1025 px) */}
      <section className="dc-ws-desktop-only dc-ws-card dc-ws-table" aria-label="Workspaces table">
        <div className="dc-ws-toolbar">
          <form role="search" onSubmit={(e) => e.preventDefault()}>
            {searchField("ws-search-desktop", searchText, setSearchText)}
          </form>
          <Flex gap="2" align="center" wrap="wrap">
            {/* Above the list, which scrolls in more rows as its end nears (as My Documents). */}
            <RowsPerPage id="ws-rows-per-page" size={size} onChange={(next) => navigate(sizeHref(next), { preventScrollReset: true })} />
            <Text size="2" color="gray" aria-live="polite">
              {someSelected ? `${selectedWs.length} selected` : ""}
            </Text>
            <Tooltip content="Delete selected">
              <IconButton variant="soft" color="red" aria-label="Delete selected" disabled={!someSelected} onClick={() => askDelete(selectedWs.map((w) => w.id))} data-testid="delete-selected-workspaces">
                <TrashIcon />
              </IconButton>
            </Tooltip>
            <Tooltip content="Refresh">
              <IconButton variant="soft" color="gray" aria-label="Refresh" onClick={() => revalidator.revalidate()} loading={revalidator.state !== "idle"}>
                <RefreshIcon />
              </IconButton>
            </Tooltip>
            <Button asChild>
              <Link to="/workspace/create">
                <PlusIcon size={16} />
                Create Workspace
              </Link>
            </Button>
          </Flex>
        </div>
        <SelectableTable
          items={workspaces}
          selected={selected}
          onSelectAll={setSelected}
          onToggle={toggle}
          selectAllLabel="Select all workspaces"
          rowTestId="workspace-row"
          name={{
            className: "dc-ws-table__name",
            cell: (w) => (
              <Link to={w.status === "CREATING" ? `/workspace/${w.id}/launch` : `/workspace/${w.id}`} className="dc-ws-link" title={w.description || w.name}>
                {w.name}
              </Link>
            ),
          }}
          columns={[
            { header: "Type", cell: (w) => w.type },
            { header: "Documents", justify: "end", cell: (w) => w.documentCount },
            { header: "Status", cell: (w) => <WorkspaceStatus ws={w} /> },
            { header: "Created", className: "dc-nowrap", cell: (w) => formatDateTime(w.createdAt) },
            { header: "Last used", className: "dc-nowrap", cell: (w) => formatDateTime(w.lastUsedAt) },
          ]}
          actions={(w) => <RowMenu ws={w} onOpen={() => navigate(`/workspace/${w.id}`)} onDelete={() => askDelete([w.id], true)} />}
          empty={
            <div className="dc-ws-empty" data-testid="workspaces-empty">
              <WorkspaceIcon size={28} />
              <Text size="2" color="gray">
                {emptyLabel}
              </Text>
            </div>
          }
        />
        <ListRange shown={workspaces.length} total={table.count} hasMore={table.hasMore} loading={table.loading} testId="workspaces-range" />
      </section>

      {/* Mobile and tablet (< 1025 px) */}
      <section className="dc-ws-mobile-only" aria-label="Workspaces">
        <Flex direction="column" gap="3">
          <HistorySwitch current="workspaces" />
          <Flex gap="2" align="center">
            <form role="search" onSubmit={(e) => e.preventDefault()} className="dc-ws-grow">
              {searchField("ws-search-mobile", cards.search, cards.setSearch)}
            </form>
            <Tooltip content="Create Workspace">
              <IconButton asChild size="3" aria-label="Create Workspace">
                <Link to="/workspace/create" data-testid="mobile-create-workspace">
                  <PlusIcon size={20} />
                </Link>
              </IconButton>
            </Tooltip>
          </Flex>
          {cards.items.length === 0 ? (
            <div className="dc-ws-empty">
              <WorkspaceIcon size={28} />
              <Text size="2" color="gray">
                {loadError ?? "No Workspaces found"}
              </Text>
            </div>
          ) : (
            <ul className="dc-ws-cards" aria-label="Workspace list">
              {cards.items.map((w) => (
                <li key={w.id}>
                  <Card className="dc-ws-wcard" data-testid="workspace-card" data-name={w.name}>
                    <Flex align="start" gap="3">
                      <span className="dc-ws-wcard__icon" aria-hidden="true">
                        <WorkspaceIcon size={20} />
                      </span>
                      <Flex direction="column" gap="1" className="dc-ws-grow">
                        <Link to={`/workspace/${w.id}`} className="dc-ws-link dc-ws-ellipsis">
                          {w.name}
                        </Link>
                        <Text size="1" color="gray">
                          {w.type} · {w.documentCount} {w.documentCount === 1 ? "document" : "documents"}
                        </Text>
                        <Text size="1" color="gray">
                          {formatDateTime(w.createdAt)}
                        </Text>
                      </Flex>
                      <Flex direction="column" align="end" gap="2">
                        <RowMenu ws={w} onOpen={() => navigate(`/workspace/${w.id}`)} onDelete={() => askDelete([w.id], true)} />
                        <WorkspaceStatus ws={w} mobile />
                      </Flex>
                    </Flex>
                  </Card>
                </li>
              ))}
            </ul>
          )}
          {cards.loading ? <Spinner size="2" mx="auto" /> : null}
        </Flex>
      </section>

      <ConfirmDialog title="Delete workspaces" {...confirmProps} />
    </div>
  );
}

function RowMenu({ ws, onOpen, onDelete }: { ws: WorkspaceSummary; onOpen: () => void; onDelete: () => void }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton variant="ghost" color="gray" aria-label={`Actions for ${ws.name}`} data-testid="workspace-menu">
          <DotsIcon />
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end">
        <DropdownMenu.Item onSelect={onOpen}>Open</DropdownMenu.Item>
        <DropdownMenu.Separator />
        <DropdownMenu.Item color="red" onSelect={onDelete}>
          Delete
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
