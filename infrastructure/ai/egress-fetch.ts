import { type Egress, EgressError } from "#application/ports/egress";

/**
 * A `fetch` for the ai SDK's provider factories that goes through the egress
 * module (ARCHITECTURE §8): a user-given base URL (an OpenAI-compatible
 * endpoint, an Azure endpoint) is held to the same address rules as any link,
 * so a key cannot be used to make the server call into the private network
 * unless the operator allow-listed the host (EGRESS_ALLOW_PRIVATE_HOSTS).
 */
export type FetchFunction = typeof globalThis.fetch;

export function egressFetch(egress: Egress, options: { timeoutMs?: number; maxBytes?: number } = {}): FetchFunction {
  const fetchStream = egress.fetchStream?.bind(egress);
  return async (input, init) => {
    if (!fetchStream) throw new EgressError("NETWORK_ERROR", "This server cannot reach AI providers.");
    const request = input instanceof Request ? input : null;
    const url = request ? request.url : input instanceof URL ? input.href : String(input);
    const headers: Record<string, string> = {};
    new Headers(request?.headers).forEach((value, name) => (headers[name] = value));
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const { bytes, contentType } = await bodyOf(init?.body ?? (request ? await request.arrayBuffer() : undefined));
    // A multipart body (transcription uploads) carries its boundary in the content type only Response knows.
    if (contentType && !Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) headers["content-type"] = contentType;
    return fetchStream({
      url,
      method: init?.method ?? request?.method ?? "GET",
      headers,
      body: bytes,
      signal: init?.signal ?? request?.signal ?? undefined,
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
    });
  };
}

async function bodyOf(body: BodyInit | null | undefined | ArrayBuffer): Promise<{ bytes: string | Uint8Array | undefined; contentType?: string }> {
  if (body == null) return { bytes: undefined };
  if (typeof body === "string") return { bytes: body };
  if (body instanceof Uint8Array) return { bytes: body };
  if (body instanceof ArrayBuffer) return { bytes: new Uint8Array(body) };
  if (ArrayBuffer.isView(body)) return { bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
  // Blob, FormData, URLSearchParams, streams: let Response read them into bytes (and say their type, with a form's boundary).
  const response = new Response(body as BodyInit);
  return { bytes: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get("content-type") ?? undefined };
}
