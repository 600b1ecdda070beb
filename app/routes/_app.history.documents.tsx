import { Button, Flex, Heading, IconButton, Text, TextField } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { ListRange } from "#app/components/list-range";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigate, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";
import { DownloadIcon, FileIcon, RefreshIcon, TrashIcon, UploadIcon, WorkspaceIcon } from "#app/components/icons";
import { ConfirmDialog } from "#app/components/library/confirm-dialog";
import { SelectableTable, useSearchQuery } from "#app/components/selectable-table";
import { DocumentCards } from "#app/components/library/document-cards";
import { DocumentMenu } from "#app/components/library/document-menu";
import { downloadUrl, type LibraryDocument, toLibraryDocument } from "#app/components/library/document-view";
import { formatDateTime, formatSize, SOURCE_LABELS, statusDisplay } from "#app/components/library/format";
import libraryStyles from "#app/components/library/library.css";
import { ReadingNotes } from "#app/components/library/reading-notes";
import { StatusBadge } from "#app/components/library/status-badge";
import { useBulkDelete } from "#app/components/library/use-bulk-delete";
import { useCsrfToken } from "#app/components/use-csrf";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { useHydrated } from "#app/components/use-hydrated";
import { useInfiniteDocuments } from "#app/components/library/use-infinite-documents";
import { useToast } from "#app/components/toast";
import { isInProgress } from "#domain/library/document";
import { isDomainError } from "#domain/shared/domain-error";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { pageSizeFrom, RowsPerPage } from "#app/components/rows-per-page";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: libraryStyles }];
export const meta: MetaFunction = () => [{ title: "My Documents | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "History", page: "My Documents" } };

/** Spec 000 §9: the table pages by 5, 10 or 15 rows (rows-per-page.tsx), the phone's card list by 10. */
const CARD_PAGE = 10;
const POLL_MS = 10_000;
const IN_PROGRESS_WINDOW_MS = 300_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const size = pageSizeFrom(url.searchParams.get("size"));
  const { libraryQueries } = await getServices();
  const [{ documents: first, total }, watched] = await Promise.all([
    libraryQueries.listDocuments(user.id, { search: q, limit: Math.max(size, CARD_PAGE) }),
    libraryQueries.documentsToWatch(user.id, new Date(Date.now() - IN_PROGRESS_WINDOW_MS)),
  ]);
  return {
    q,
    size,
    total,
    // The first page of each list; the rest arrive as the reader scrolls (spec 000 §2, §9).
    documents: first.slice(0, size).map(toLibraryDocument),
    mobileFirst: first.slice(0, CARD_PAGE).map(toLibraryDocument),
    // For polling and the "ready" toasts: what is in progress or just changed, never the whole library.
    tracked: watched.map((d) => ({ id: d.id, name: d.name, status: d.status, createdAt: d.createdAt, reason: d.failureReason })),
  };
}

type ActionResult = { ok: true; message: string } | { ok: false; message: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const ids = formData.getAll("id").filter((v): v is string => typeof v === "string" && v.length > 0);
  if (formData.get("intent") !== "delete" || ids.length === 0) {
    return data<ActionResult>({ ok: false, message: "Select at least one document." }, { status: 400 });
  }
  try {
    const { library } = await getServices();
    await library.deleteDocuments(user.id, ids, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (isDomainError(error)) {
      return data<ActionResult>({ ok: false, message: error.message }, { status: error.code === "DOCUMENT_NOT_FOUND" ? 404 : 409 });
    }
    throw error;
  }
  return data<ActionResult>({ ok: true, message: ids.length === 1 ? "Document deleted" : `${ids.length} documents deleted` });
}

export default function MyDocumentsPage() {
  const loaderData = useLoaderData<typeof loader>();
  const { q, size, total, documents: firstPage, mobileFirst, tracked } = loaderData;
  const hydrated = useHydrated();
  const isDesktop = hydrated && window.matchMedia("(min-width: 1025px)").matches;
  const { items: documents, count, hasMore, loading } = useInfiniteDocuments({ first: firstPage, total, q, pageSize: size, active: isDesktop });
  const { selected, setSelected, toggle, askDelete: confirmBeforeDelete, confirmProps } = useBulkDelete("document");
  const [searchText, setSearchText] = useSearchQuery(q);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const toast = useToast();
  const csrfToken = useCsrfToken();
  const zipForm = useRef<HTMLFormElement>(null);

  useEffect(() => setSelected(new Set()), [size, q]);

  // Polling (spec 000 §4): every 10 s while something is in progress and the newest in-progress upload is under 5 minutes old.
  const inProgress = tracked.filter((d) => isInProgress(d.status));
  const newestInProgress = inProgress.reduce((max, d) => Math.max(max, Date.parse(d.createdAt)), 0);
  useEffect(() => {
    if (inProgress.length === 0 || Date.now() - newestInProgress > IN_PROGRESS_WINDOW_MS) return;
    const timer = window.setInterval(() => revalidator.revalidate(), POLL_MS);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [inProgress.length, newestInProgress]);

  // A toast each time a document finishes.
  const previous = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    const before = previous.current;
    if (before) {
      for (const d of tracked) {
        const was = before.get(d.id);
        if (!was || !isInProgress(was) || isInProgress(d.status)) continue;
        if (d.status === "ACTIVE") toast.push({ type: "success", message: `${d.name} is ready to chat` });
        else toast.push({ type: "error", message: `${d.name} failed${d.reason ? `: ${d.reason}` : ""}` });
      }
    }
    previous.current = new Map(tracked.map((d) => [d.id, d.status]));
  }, [tracked, toast]);

  const byId = useMemo(() => new Map(documents.map((d) => [d.id, d])), [documents]);
  const selectedDocs = [...selected].map((id) => byId.get(id)).filter((d): d is LibraryDocument => Boolean(d));

  /** Spec 000 §5 History: only finished documents can make a quick workspace. */
  const quickWorkspace = () => {
    if (selectedDocs.length === 0) return;
    if (selectedDocs.some((d) => d.status !== "ACTIVE")) {
      toast.push({ type: "error", message: "Please remove in-progress or failed files before navigating." });
      return;
    }
    navigate(`/workspace/create?documentIds=${selectedDocs.map((d) => d.id).join(",")}&quick=1`);
  };

  const askDelete = (docs: LibraryDocument[], fromRow = false) => {
    if (docs.length === 0) return;
    if (docs.some((d) => statusDisplay(d.status).inProgress)) {
      toast.push({ type: "error", message: "Please remove in-progress files before deleting documents." });
      return;
    }
    confirmBeforeDelete(docs.map((d) => d.id), fromRow);
  };

  const downloadSelected = () => {
    if (selectedDocs.length === 0) return;
    if (selectedDocs.length === 1) {
      const a = document.createElement("a");
      a.href = downloadUrl(selectedDocs[0].id);
      a.download = "";
      document.body.appendChild(a);
      a.click();
      a.remove();
      return;
    }
    zipForm.current?.requestSubmit();
  };

  const sizeHref = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("size", String(n));
    return `?${next}`;
  };
  const none = selectedDocs.length === 0;

  return (
    <div className="dc-lib-page">
      <header className="dc-lib-page__header">
        <div>
          <Heading as="h1" size={{ initial: "6", sm: "7" }}>
            My Documents
          </Heading>
          <Text as="p" size="3" color="gray" mt="1">
            Everything you uploaded, with its status. {inProgress.length > 0 ? `${inProgress.length} still being prepared…` : ""}
          </Text>
        </div>
      </header>

      {/* Desktop (≥ 1025 px) */}
      <section className="dc-desktop-only dc-lib-card dc-doc-table" aria-label="Documents table">
        <div className="dc-doc-toolbar">
          <Form method="get" role="search" className="dc-doc-toolbar__search" onSubmit={(e) => e.preventDefault()}>
            <input type="hidden" name="size" value={size} />
            <TextField.Root
              type="search"
              name="q"
              placeholder="Search by name"
              aria-label="Search documents by name"
              value={searchText}
              onChange={(e) => setSearchText(e.currentTarget.value)}
              size="2"
            />
          </Form>
          <Flex gap="2" wrap="wrap" align="center">
            {/* Above the list, not below it: the list scrolls in more rows as its end nears, so a control after it moves away (issue 34). */}
            <RowsPerPage id="rows-per-page" size={size} onChange={(next) => navigate(sizeHref(next), { preventScrollReset: true })} />
            <Text size="2" color="gray" aria-live="polite" className="dc-doc-toolbar__count">
              {selectedDocs.length > 0 ? `${selectedDocs.length} selected` : ""}
            </Text>
            <Tooltip content="Download selected">
              <IconButton variant="soft" color="gray" aria-label="Download selected" disabled={none} onClick={downloadSelected} data-testid="download-selected">
                <DownloadIcon />
              </IconButton>
            </Tooltip>
            <Tooltip content="Delete selected">
              <IconButton variant="soft" color="red" aria-label="Delete selected" disabled={none} onClick={() => askDelete(selectedDocs)} data-testid="delete-selected">
                <TrashIcon />
              </IconButton>
            </Tooltip>
            <Tooltip content="Refresh">
              <IconButton variant="soft" color="gray" aria-label="Refresh" onClick={() => revalidator.revalidate()} loading={revalidator.state !== "idle"} data-testid="refresh">
                <RefreshIcon />
              </IconButton>
            </Tooltip>
            <Tooltip content="Create a workspace from the selected documents">
              <Button variant="soft" disabled={none} onClick={quickWorkspace} data-testid="quick-workspace">
                <WorkspaceIcon size={16} />
                Quick Workspace
              </Button>
            </Tooltip>
            <Button asChild>
              <Link to="/upload/files">
                <UploadIcon size={16} />
                Upload
              </Link>
            </Button>
          </Flex>
        </div>

        <SelectableTable
          className="dc-doc-table__table"
          items={documents}
          selected={selected}
          onSelectAll={setSelected}
          onToggle={toggle}
          selectAllLabel="Select all documents shown"
          rowTestId="document-row"
          name={{
            className: "dc-doc-table__name",
            cell: (d) => (
              <Link to={`/document/${d.id}`} className="dc-doc-link" title={d.name}>
                {d.name}
              </Link>
            ),
          }}
          columns={[
            { header: "Source", cell: (d) => SOURCE_LABELS[d.source] ?? d.source },
            { header: "Pages", justify: "end", cell: (d) => d.pageCount || "—" },
            { header: "Size", justify: "end", className: "dc-nowrap", cell: (d) => formatSize(d.size) },
            { header: "Uploaded", className: "dc-nowrap", cell: (d) => formatDateTime(d.createdAt) },
            {
              header: "Status",
              cell: (d) => (
                <>
                  <StatusBadge status={d.status} reason={d.failureReason} showRaw />
                  <ReadingNotes notes={d.readingNotes} mt="1" />
                </>
              ),
            },
          ]}
          actions={(d) => <DocumentMenu document={d} onDelete={(doc) => askDelete([doc], true)} />}
          empty={
            <div className="dc-empty">
              <FileIcon size={28} />
              <Text size="2" color="gray">
                {q ? `No documents match “${q}”.` : "No Document Uploaded yet."}
              </Text>
            </div>
          }
        />

        <ListRange shown={documents.length} total={count} hasMore={hasMore} loading={loading} testId="range" />
      </section>

      {/* Mobile and tablet (< 1025 px) */}
      <section className="dc-mobile-only" aria-label="Documents">
        <DocumentCards first={mobileFirst} total={total} q={q} onDelete={(doc) => askDelete([doc], true)} />
      </section>

      <form ref={zipForm} method="post" action="/documents/download-zip" hidden>
        <input type="hidden" name="csrf" value={csrfToken} />
        {selectedDocs.map((d) => (
          <input key={d.id} type="hidden" name="id" value={d.id} />
        ))}
      </form>

      <ConfirmDialog title="Delete documents" {...confirmProps} />
    </div>
  );
}

