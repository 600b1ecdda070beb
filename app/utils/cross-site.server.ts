/**
 * Forms and API writes are only accepted from the app's own pages. A
 * cross-site form POST (e.g. enctype="text/plain", which the form parser cannot
 * read) used to fail with a 500; server.mjs now answers it 403 with this
 * message before Remix sees it. The CSRF token stays the check for same-site
 * requests; this is the clear refusal for the rest.
 */
export const CROSS_SITE_MESSAGE =
  "This request came from another website, so it was refused. Open the page on this site and submit the form again.";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface IncomingRequestFacts {
  method: string;
  /** Sec-Fetch-Site, sent by every current browser. */
  fetchSite?: string | null;
  origin?: string | null;
  /** The Host header. */
  host?: string | null;
  /** PUBLIC_URL, when the app is reached under another name than its Host header (a proxy). */
  publicUrl?: string | null;
}

/** The refusal message for a cross-site write, or null when the request may go on. */
export function crossSiteRefusal(request: IncomingRequestFacts): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const fetchSite = request.fetchSite?.toLowerCase();
  if (fetchSite) return fetchSite === "same-origin" || fetchSite === "none" ? null : CROSS_SITE_MESSAGE;
  // Older browsers: judge by Origin when there is one (non-browser clients send none).
  if (!request.origin) return null;
  const originHost = hostOf(request.origin);
  if (originHost === null) return CROSS_SITE_MESSAGE; // "null" (sandboxed frame, opaque origin) or garbage
  const own = [request.host?.toLowerCase(), request.publicUrl ? hostOf(request.publicUrl) : null];
  return own.includes(originHost) ? null : CROSS_SITE_MESSAGE;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}
