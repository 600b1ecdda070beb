import { useCallback, useEffect, useRef, useState } from "react";
import type { ApiDocument } from "./api.server";
import type { LibraryDocument } from "./document-view";

/** Spec 000 §2, §9: the next page loads when the window is within 10 px of the bottom for 200 ms. */
const SCROLL_SLACK_PX = 10;
const SCROLL_DELAY_MS = 200;

export const fromApi = (d: ApiDocument): LibraryDocument => ({
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
 * My Documents as an infinite list (desktop table and phone cards alike): the
 * loader's first page, then `pageSize` more from GET /api/documents each time
 * the reader nears the bottom, also while the list is too short to scroll.
 * `search` is typed here (cards) or comes from the loader (table).
 */
export function useInfiniteDocuments({ first, total, q, pageSize, active = true }: { first: LibraryDocument[]; total: number; q: string; pageSize: number; active?: boolean }) {
  const [items, setItems] = useState(first);
  const [search, setSearch] = useState(q);
  const [count, setCount] = useState(total);
  const [loading, setLoading] = useState(false);
  const loadingRef = useRef(false);
  const searchRef = useRef(search);
  searchRef.current = search;

  const fetchPage = useCallback(
    async (offset: number, term: string, limit = pageSize) => {
      const params = new URLSearchParams({ limit: String(limit), offset: String(offset), search: term });
      const response = await fetch(`/api/documents?${params}`, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error("Could not load documents");
      return (await response.json()) as { documents: ApiDocument[]; total: number };
    },
    [pageSize],
  );

  // Fresh loader data (polling, deletes): the first page as the loader sees it, and the rows scrolled in
  // read again, so a deleted or finished document is never shown as it was.
  const shown = useRef(items.length);
  shown.current = items.length;
  useEffect(() => {
    if (searchRef.current.trim() !== q.trim()) return;
    setCount(total);
    const scrolledIn = shown.current - first.length;
    if (scrolledIn <= 0 || first.length < pageSize) {
      setItems(first);
      return;
    }
    let cancelled = false;
    fetchPage(first.length, q, scrolledIn)
      .then((page) => {
        if (cancelled) return;
        const ids = new Set(first.map((d) => d.id));
        setItems([...first, ...page.documents.map(fromApi).filter((d) => !ids.has(d.id))]);
        setCount(page.total);
      })
      .catch((error) => console.error(error));
    return () => {
      cancelled = true;
    };
  }, [first, total, q, pageSize, fetchPage]);

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
    if (!hasMore || !active) return;
    let timer: number | undefined;
    const nearBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - SCROLL_SLACK_PX;
    const check = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (nearBottom()) void loadMore();
      }, SCROLL_DELAY_MS);
    };
    // A first page shorter than the window never scrolls: look once now, and after each page arrives.
    check();
    window.addEventListener("scroll", check, { passive: true });
    return () => {
      window.removeEventListener("scroll", check);
      window.clearTimeout(timer);
    };
  }, [hasMore, loadMore, active]);

  return { items, count, hasMore, loading, loadMore, search, setSearch };
}
