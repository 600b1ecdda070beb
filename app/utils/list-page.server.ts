const MAX_PAGE_SIZE = 100;
const MAX_SEARCH = 200;

/** `?search=&limit=&offset=` of a list API (infinite scroll, search on the server), bounded. */
export function listPageParams(url: URL, defaultLimit = 10): { search: string; limit: number; offset: number } {
  return {
    search: (url.searchParams.get("search") ?? "").trim().slice(0, MAX_SEARCH),
    limit: clampInt(url.searchParams.get("limit"), defaultLimit, 1, MAX_PAGE_SIZE),
    offset: clampInt(url.searchParams.get("offset"), 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

function clampInt(text: string | null, fallback: number, min: number, max: number) {
  const n = Number.parseInt(text ?? "", 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}
