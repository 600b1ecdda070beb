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
    return fetchStream({
      url,
      method: init?.method ?? request?.method ?? "GET",
      headers,
      body: await bodyOf(init?.body ?? (request ? await request.arrayBuffer() : undefined)),
      signal: init?.signal ?? request?.signal ?? undefined,
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
    });
  };
}

async function bodyOf(body: BodyInit | null | undefined | ArrayBuffer): Promise<string | Uint8Array | undefined> {
  if (body == null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  // Blob, FormData, URLSearchParams, streams: let Response read them into bytes.
  return new Uint8Array(await new Response(body as BodyInit).arrayBuffer());
}
