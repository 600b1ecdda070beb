/**
 * Which page the reader is on, from the scroll position of a column of pages.
 *
 * The reading line sits a third down the viewport. Near the end of a document
 * the last pages can never scroll up to that line (the column ends first), so
 * a viewport scrolled to the bottom is on the last page, and a page the reader
 * asked for (page input, Next, a citation) stays current until they scroll.
 */
export interface ScrollMetrics {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
}

/** Pixels of slack for sub-pixel scroll positions. */
const SLACK = 2;

export function pageAtReadingLine(pageTop: (page: number) => number | undefined, pageCount: number, metrics: ScrollMetrics): number {
  if (pageCount <= 0) return 1;
  if (metrics.scrollHeight > metrics.clientHeight && metrics.scrollTop + metrics.clientHeight >= metrics.scrollHeight - SLACK) return pageCount;
  const line = metrics.scrollTop + metrics.clientHeight / 3;
  let lo = 1;
  let hi = pageCount;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const top = pageTop(mid);
    if (top !== undefined && top <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A page the reader asked for, and the scroll position that showing it produced. */
export interface RequestedPage {
  page: number;
  scrollTop: number;
}

/** The current page: the requested one while the view has not moved since, else the page at the reading line. */
export function currentPage(requested: RequestedPage | null, pageTop: (page: number) => number | undefined, pageCount: number, metrics: ScrollMetrics): number {
  if (requested && Math.abs(metrics.scrollTop - requested.scrollTop) <= SLACK) return requested.page;
  return pageAtReadingLine(pageTop, pageCount, metrics);
}
