/**
 * The one way the server fetches user-given URLs (ARCHITECTURE §8): http(s)
 * only, every resolved address checked (no loopback, private, link-local,
 * IPv4-mapped, NAT64 or metadata addresses), every redirect re-checked, size
 * and time limits.
 */
export interface EgressRequest {
  url: string;
  /** Largest body accepted, in bytes. */
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
}

export interface EgressResponse {
  /** The URL finally fetched, after redirects. */
  url: string;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A refused or failed fetch, with a message the user can read. */
export class EgressError extends Error {
  constructor(
    readonly code:
      | "INVALID_URL"
      | "SCHEME_NOT_ALLOWED"
      | "ADDRESS_NOT_ALLOWED"
      | "TOO_MANY_REDIRECTS"
      | "TOO_LARGE"
      | "TIMEOUT"
      | "HTTP_ERROR"
      | "NETWORK_ERROR",
    message: string,
    /** For HTTP_ERROR: the status the site answered (404 tells "not found" from "failed"). */
    readonly status?: number,
  ) {
    super(message);
    this.name = "EgressError";
  }
}

/**
 * A request whose answer is streamed (provider APIs: a POST, then SSE or
 * event-stream chunks). Same address checks and pinning as `fetch`; redirects
 * are not followed (an API that redirects is answered as it is); any status
 * is returned, not thrown, so the caller's client can read the error body.
 */
export interface EgressStreamRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Largest response body accepted, in bytes (default 10 MB). */
  maxBytes?: number;
  /** Deadline for the whole exchange, body included (default 5 minutes). */
  timeoutMs?: number;
  /** The caller's cancellation (e.g. the chat request was closed). */
  signal?: AbortSignal;
}

export interface Egress {
  fetch(request: EgressRequest): Promise<EgressResponse>;
  /** Streaming variant (optional: an egress that cannot stream is refused for provider calls). */
  fetchStream?(request: EgressStreamRequest): Promise<Response>;
}
