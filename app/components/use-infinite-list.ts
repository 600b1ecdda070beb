import { type RefObject, useCallback, useEffect, useRef, useState } from "react";

/** Spec 000 §2, §9: the next page loads when the list is within 10 px of its bottom for 200 ms. */
const SCROLL_SLACK_PX = 10;
const SCROLL_DELAY_MS = 200;
const SEARCH_DELAY_MS = 250;

export interface ListPage<T> {
  items: T[];
  total: number;
}

/** One page from the server: `limit` rows from `offset`, of those whose name contains `search`. */
export type FetchListPage<T> = (offset: number, search: string, limit: number) => Promise<ListPage<T>>;

/**
 * A list that pages from the server as it scrolls (My Documents, My Workspaces,
 * the attach dialog's files): the loader's first page, then `pageSize` more
 * each time the reader nears the bottom — of the window, or of `scrollRoot`
 * when the list scrolls inside a box — also while the rows do not fill it.
 * Search runs on the server: `search` is typed here (cards, dialogs) or comes
 * from the loader as `q` (tables). Without `first` (a popover or dialog that
 * lists only once opened) the first page is fetched on mount. `fetchPage` must
 * keep its identity.
 */
export function useInfiniteList<T extends { id: string }>({
  first,
  total = 0,
  q = "",
  pageSize,
  fetchPage,
  active = true,
  scrollRoot,
}: {
  first?: T[];
  total?: number;
  q?: string;
  pageSize: number;
  fetchPage: FetchListPage<T>;
  active?: boolean;
  scrollRoot?: RefObject<HTMLElement>;
}) {
  const [items, setItems] = useState(first ?? []);
  const [search, setSearch] = useState(q);
  const [count, setCount] = useState(total);
  const [loading, setLoading] = useState(!first);
  const loadingRef = useRef(false);
  const searchRef = useRef(search);
  searchRef.current = search;

  // Fresh loader data (polling, deletes): the first page as the loader sees it, and the rows scrolled in
  // read again, so a deleted or finished row is never shown as it was.
  const shown = useRef(items.length);
  shown.current = items.length;
  const loaderQ = useRef(q);
  useEffect(() => {
    if (!first) return;
    if (q !== loaderQ.current) {
      // The loader searched anew (a table keeps its search in the URL): its first page replaces the rows.
      loaderQ.current = q;
      searchRef.current = q;
      setSearch(q);
      setItems(first);
      setCount(total);
      return;
    }
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
        setItems([...first, ...page.items.filter((d) => !ids.has(d.id))]);
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
      const page = await fetchPage(items.length, searchRef.current, pageSize);
      setItems((current) => {
        const ids = new Set(current.map((d) => d.id));
        return [...current, ...page.items.filter((d) => !ids.has(d.id))];
      });
      setCount(page.total);
    } catch (error) {
      console.error(error);
    } finally {
      loadingRef.current = false;
      setLoading(false);
    }
  }, [fetchPage, items.length, pageSize]);

  // Search as you type (case-insensitive, part of the name), on the server; the first page when none came with the list.
  const searched = useRef(first !== undefined);
  useEffect(() => {
    const initial = !searched.current;
    searched.current = true;
    if (!initial && search === q && items === first) return;
    let cancelled = false;
    const timer = window.setTimeout(
      async () => {
        try {
          const page = await fetchPage(0, search, pageSize);
          if (cancelled) return;
          setItems(page.items);
          setCount(page.total);
        } catch (error) {
          console.error(error);
        } finally {
          if (!cancelled) setLoading(false);
        }
      },
      initial ? 0 : SEARCH_DELAY_MS,
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  const hasMore = items.length < count;
  useEffect(() => {
    if (!hasMore || !active) return;
    const root = scrollRoot?.current ?? null;
    let timer: number | undefined;
    const nearBottom = () => {
      // A box not drawn (every row so far filtered out) cannot be filled: fetch on.
      if (scrollRoot && !root) return true;
      if (root) return root.scrollTop + root.clientHeight >= root.scrollHeight - SCROLL_SLACK_PX;
      return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - SCROLL_SLACK_PX;
    };
    const check = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (nearBottom()) void loadMore();
      }, SCROLL_DELAY_MS);
    };
    // A first page shorter than its box never scrolls: look once now, and after each page arrives.
    check();
    const target = root ?? window;
    target.addEventListener("scroll", check, { passive: true });
    return () => {
      target.removeEventListener("scroll", check);
      window.clearTimeout(timer);
    };
  }, [hasMore, loadMore, active, scrollRoot]);

  return { items, count, hasMore, loading, loadMore, search, setSearch };
}
