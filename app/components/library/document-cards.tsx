import { Button, Card, Flex, IconButton, Spinner, Text, TextField } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { FileIcon, PlusIcon } from "#app/components/icons";
import type { ApiDocument } from "./api.server";
import { DocumentMenu } from "./document-menu";
import type { LibraryDocument } from "./document-view";
import { formatDateTime, formatPageCount, formatSize, SOURCE_LABELS } from "./format";
import { StatusBadge } from "./status-badge";
import { ReadingNotes } from "./reading-notes";
import { HistorySwitch } from "./history-switch";

const PAGE = 10;
const SCROLL_SLACK_PX = 10;
const SCROLL_DELAY_MS = 200;

const fromApi = (d: ApiDocument): LibraryDocument => ({
  id: d.document_id,
  name: d.document_name,
  source: d.metadata.document_source,
  fileType: d.metadata.document_type,
  kind: d.file_type,
  size: d.metadata.document_size,
  pageCount: d.metadata.page_count,
  sourceUrl: d.metadata.document_url,
  status: d.status,
  failureReason: d.failure_reason,
  warnings: d.warnings,
  readingNotes: d.reading_notes ?? [],
  createdAt: d.created_timestamp,
});

/**
 * Mobile and tablet (< 1025 px): cards with search and infinite scroll — the
 * next page loads when the window is within 10 px of the bottom for 200 ms.
 */
export function DocumentCards({
  first,
  total,
  q,
  onDelete,
}: {
  first: LibraryDocument[];
  total: number;
  q: string;
  onDelete: (document: LibraryDocument) => void;
}) {
  const [items, setItems] = useState(first);
  const [search, setSearch] = useState(q);
  const [count, setCount] = useState(total);
  const [loading, setLoading] = useState(false);
  const loadingRef = useRef(false);
  const searchRef = useRef(search);
  searchRef.current = search;

  // Fresh loader data (polling, deletes): refresh the first page, keep what was scrolled in.
  useEffect(() => {
    if (searchRef.current.trim() !== q.trim()) return;
    setItems((current) => {
      const ids = new Set(first.map((d) => d.id));
      const extra = current.slice(first.length).filter((d) => !ids.has(d.id));
      return [...first, ...extra];
    });
    setCount(total);
  }, [first, total, q]);

  const fetchPage = useCallback(async (offset: number, term: string) => {
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset), search: term });
    const response = await fetch(`/api/documents?${params}`, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error("Could not load documents");
    return (await response.json()) as { documents: ApiDocument[]; total: number };
  }, []);

  const loadMore = useCallback(async () => {
    if (loadingRef.current) return;
    loadingRef.current = true;
    setLoading(true);
    try {
      const page = await fetchPage(items.length, searchRef.current);
      setItems((current) => {
        const ids = new Set(current.map((d) => d.id));
        return [...current, ...page.documents.map(fromApi).filter((d) => !ids.has(d.id))];
      });
      setCount(page.total);
    } catch (error) {
      console.error(error);
    } finally {
      loadingRef.current = false;
      setLoading(false);
    }
  }, [fetchPage, items.length]);

  // Search as you type (case-insensitive, part of the name).
  useEffect(() => {
    if (search === q && items === first) return;
    const timer = window.setTimeout(async () => {
      try {
        const page = await fetchPage(0, search);
        setItems(page.documents.map(fromApi));
        setCount(page.total);
      } catch (error) {
        console.error(error);
      }
    }, 250);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  const hasMore = items.length < count;
  useEffect(() => {
    if (!hasMore) return;
    let timer: number | undefined;
    const onScroll = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        const bottom = window.innerHeight + window.scrollY;
        if (bottom >= document.documentElement.scrollHeight - SCROLL_SLACK_PX) void loadMore();
      }, SCROLL_DELAY_MS);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      window.clearTimeout(timer);
    };
  }, [hasMore, loadMore]);

  return (
    <div className="dc-doc-cards">
      <HistorySwitch current="documents" />
      <Flex gap="2" align="center" mb="3" mt="3">
        <TextField.Root
          className="dc-grow"
          type="search"
          size="3"
          placeholder="Search documents"
          aria-label="Search documents"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <IconButton asChild size="3" aria-label="Upload a document">
          <Link to="/upload">
            <PlusIcon size={20} />
          </Link>
        </IconButton>
      </Flex>
      {items.length === 0 ? (
        <div className="dc-empty dc-lib-card">
          <FileIcon size={28} />
          <Text size="2" color="gray">
            No documents found
          </Text>
        </div>
      ) : (
        <ul className="dc-doc-cards__list" aria-label="Documents">
          {items.map((d) => (
            <li key={d.id}>
              <Card size="2" className="dc-doc-card" data-testid="document-card">
                <Flex justify="between" align="start" gap="2">
                  <Link to={`/document/${d.id}`} className="dc-doc-card__name">
                    {d.name}
                  </Link>
                  <DocumentMenu document={d} onDelete={onDelete} />
                </Flex>
                <Flex gap="2" align="center" wrap="wrap" mt="2">
                  <StatusBadge status={d.status} reason={d.failureReason} />
                  <Text size="1" color="gray">
                    {SOURCE_LABELS[d.source] ?? d.source} · {formatPageCount(d.pageCount)} · {formatSize(d.size)}
                  </Text>
                </Flex>
                <ReadingNotes notes={d.readingNotes} mt="1" />
                <Text as="div" size="1" color="gray" mt="1">
                  {formatDateTime(d.createdAt)}
                </Text>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {hasMore ? (
        <Flex justify="center" mt="3">
          <Button variant="soft" onClick={() => void loadMore()} disabled={loading}>
            {loading ? <Spinner /> : null}
            Load more
          </Button>
        </Flex>
      ) : null}
    </div>
  );
}
