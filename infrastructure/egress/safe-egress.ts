import { lookup as systemLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import tls from "node:tls";
import zlib from "node:zlib";
import { EgressError, type Egress, type EgressRequest, type EgressResponse, type EgressStreamRequest } from "#application/ports/egress";
import { classifyAddress, classifyHostName, REFUSAL_MESSAGES } from "./address-policy";

/**
 * The one way the server fetches user-given URLs (ARCHITECTURE §8).
 *
 * For every hop (the first URL and each redirect): the URL is parsed with
 * the WHATWG parser (which turns decimal, octal, hex and short IPv4 forms
 * into dotted quads), only http/https without credentials pass, the host is
 * resolved HERE and every address checked, and the connection is then made
 * to exactly those checked addresses (a custom `lookup` on the socket), so a
 * DNS answer that changes between check and connect cannot be used. TLS SNI
 * and the Host header stay the original name. Bodies are streamed through a
 * byte counter; one deadline covers resolution, redirects and body.
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export interface SafeEgressOptions {
  /**
   * Operator allow-list of host NAMES (exact, case-insensitive) whose
   * addresses are not checked, e.g. a local model server. Matching is by the
   * whole name only: no suffixes, no wildcards; IP-literal URLs and redirect
   * targets are checked as usual unless they too are listed.
   */
  allowPrivateHosts?: string[];
  /** Name resolution; defaults to the system resolver (getaddrinfo, all addresses). */
  resolver?: Resolver;
  /** Default body limit in bytes (25 MB). */
  defaultMaxBytes?: number;
  /** Default deadline for the whole fetch, redirects and body included (15 s). */
  defaultTimeoutMs?: number;
  /** Default most redirects followed (5). */
  maxRedirects?: number;
  userAgent?: string;
  /** Extra certificate authorities to trust, PEM (e.g. an operator's internal CA); the system ones stay trusted. */
  extraCaCertificates?: string[];
}

/** HTTP_ERROR with the status the site answered. */
export class EgressHttpError extends EgressError {
  constructor(
    override readonly status: number,
    message: string,
  ) {
    super("HTTP_ERROR", message, status);
  }
}

const MB = 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Request headers a caller may not set: the egress owns these. */
const RESERVED_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "accept-encoding", "upgrade", "te", "proxy-authorization"]);
/** Headers not carried to another origin on a redirect. */
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie"]);

const systemResolver: Resolver = async (host) => {
  const answers = await systemLookup(host, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family }));
};

/**
 * Resolves the listed names (lower case) to fixed addresses and every other
 * name through `fallback`. The addresses are still checked like DNS answers:
 * a listed name that points at a private address also needs the allow-list.
 */
export function fixedHostsResolver(table: Record<string, string[]>, fallback: Resolver = systemResolver): Resolver {
  return async (host) => {
    const addresses = table[normaliseHostName(host)];
    return addresses ? addresses.map((address) => ({ address, family: isIP(address) })) : fallback(host);
  };
}

const formatLimit = (bytes: number) =>
  bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;

interface Target {
  url: URL;
  /** Host without IPv6 brackets. */
  host: string;
  addresses: ResolvedAddress[];
}

export class SafeEgress implements Egress {
  private readonly allowList: Set<string>;
  private readonly resolver: Resolver;
  private readonly defaultMaxBytes: number;
  private readonly defaultTimeoutMs: number;
  private readonly defaultMaxRedirects: number;
  private readonly userAgent: string;
  private readonly ca: string[] | undefined;

  constructor(options: SafeEgressOptions = {}) {
    this.allowList = new Set((options.allowPrivateHosts ?? []).map(normaliseHostName).filter((h) => h !== ""));
    this.resolver = options.resolver ?? systemResolver;
    this.defaultMaxBytes = options.defaultMaxBytes ?? 25 * MB;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 15_000;
    this.defaultMaxRedirects = options.maxRedirects ?? 5;
    this.userAgent = options.userAgent ?? "DocuChatBot/1.0";
    this.ca = options.extraCaCertificates?.length ? [...tls.rootCertificates, ...options.extraCaCertificates] : undefined;
  }

  async fetch(request: EgressRequest): Promise<EgressResponse> {
    const maxBytes = request.maxBytes ?? this.defaultMaxBytes;
    const timeoutMs = request.timeoutMs ?? this.defaultTimeoutMs;
    const maxRedirects = request.maxRedirects ?? this.defaultMaxRedirects;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const signal = controller.signal;

    let headers = this.requestHeaders(request.headers);
    try {
      let url = checkUrl(request.url);
      for (let redirects = 0; ; redirects++) {
        const target = await this.checkTarget(url, signal);
        const response = await send(target, headers, signal, this.ca);
        const status = response.statusCode ?? 0;

        if (REDIRECT_STATUSES.has(status)) {
          response.destroy();
          if (redirects >= maxRedirects) {
            throw new EgressError("TOO_MANY_REDIRECTS", "The link redirected too many times and was not followed.");
          }
          const location = response.headers.location;
          if (!location) throw new EgressHttpError(status, `The site answered with a redirect but no new address (HTTP ${status}).`);
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new EgressError("INVALID_URL", "The site redirected to an address that is not valid.");
          }
          const nextUrl = checkUrl(next.href);
          if (nextUrl.origin !== url.origin) headers = dropCredentials(headers);
          url = nextUrl;
          continue;
        }

        if (status < 200 || status > 299) {
          response.destroy();
          throw new EgressHttpError(status, httpErrorMessage(status));
        }

        const tooLarge = () => new EgressError("TOO_LARGE", `The content at this address is larger than the ${formatLimit(maxBytes)} limit.`);
        const declared = Number(response.headers["content-length"]);
        if (Number.isFinite(declared) && declared > maxBytes) {
          response.destroy();
          throw tooLarge();
        }
        const body = await readBody(response, maxBytes, tooLarge);
        const responseHeaders = flattenHeaders(response.headers);
        return { url: url.href, status, contentType: responseHeaders["content-type"] ?? "", headers: responseHeaders, body };
      }
    } catch (error) {
      if (signal.aborted) throw new EgressError("TIMEOUT", "The site took too long to answer.");
      if (error instanceof EgressError) throw error;
      throw networkError(error);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  /**
   * Provider API calls (ai SDK `fetch`): one hop, same URL and address checks
   * and pinning as `fetch`, the body streamed back as it arrives through a
   * byte counter. Statuses are returned as they are (the SDK reads its
   * provider's error bodies); redirects are not followed.
   */
  async fetchStream(request: EgressStreamRequest): Promise<Response> {
    const maxBytes = request.maxBytes ?? 10 * MB;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new EgressError("TIMEOUT", "The provider took too long to answer.")), request.timeoutMs ?? 5 * 60_000);
    const onCallerAbort = () => controller.abort(request.signal?.reason);
    if (request.signal?.aborted) onCallerAbort();
    request.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onCallerAbort);
    };
    const signal = controller.signal;
    let response: http.IncomingMessage;
    try {
      const target = await this.checkTarget(checkUrl(request.url), signal);
      const headers = this.requestHeaders(request.headers);
      // Streams are read as they arrive: no compression to undo mid-stream.
      headers["accept-encoding"] = "identity";
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      response = await send(target, headers, signal, this.ca, (request.method ?? "GET").toUpperCase(), body);
    } catch (error) {
      done();
      if (request.signal?.aborted) throw request.signal.reason ?? new Error("aborted");
      if (signal.aborted) throw new EgressError("TIMEOUT", "The provider took too long to answer.");
      if (error instanceof EgressError) throw error;
      throw networkError(error);
    }
    let total = 0;
    let settled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(streamController) {
        const finish = (error?: EgressError) => {
          if (settled) return;
          settled = true;
          done();
          if (error) {
            response.destroy();
            streamController.error(error);
          } else streamController.close();
        };
        response.on("data", (chunk: Buffer) => {
          if (settled) return;
          total += chunk.length;
          if (total > maxBytes) return finish(new EgressError("TOO_LARGE", "The provider's answer was larger than allowed."));
          streamController.enqueue(new Uint8Array(chunk));
        });
        response.on("end", () => finish());
        // A reset connection surfaces as 'error' and/or an incomplete 'close'.
        const interrupted = () => finish(new EgressError("NETWORK_ERROR", "The connection to the provider was interrupted."));
        response.on("error", interrupted);
        response.on("close", () => {
          if (!response.complete) interrupted();
          else finish();
        });
      },
      cancel() {
        settled = true;
        done();
        response.destroy();
      },
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(flattenHeaders(response.headers))) headers.set(name, value);
    const status = response.statusCode ?? 502;
    const nullBody = status === 204 || status === 304;
    if (nullBody) response.resume();
    return new Response(nullBody ? null : stream, { status, statusText: response.statusMessage ?? "", headers });
  }

  private requestHeaders(extra: Record<string, string> | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      "user-agent": this.userAgent,
      accept: "*/*",
    };
    for (const [name, value] of Object.entries(extra ?? {})) {
      const key = name.toLowerCase();
      if (!RESERVED_HEADERS.has(key)) headers[key] = value;
    }
    headers["accept-encoding"] = "gzip, deflate, br";
    return headers;
  }

  /** Resolves and checks the host of one hop; the answer is what the socket will connect to. */
  private async checkTarget(url: URL, signal: AbortSignal): Promise<Target> {
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const allowListed = this.allowList.has(normaliseHostName(url.hostname));

    const family = isIP(host);
    if (family !== 0) {
      const refusal = allowListed ? null : classifyAddress(host);
      if (refusal) throw new EgressError("ADDRESS_NOT_ALLOWED", REFUSAL_MESSAGES[refusal]);
      return { url, host, addresses: [{ address: host, family }] };
    }

    if (!allowListed) {
      const refusal = classifyHostName(host);
      if (refusal) throw new EgressError("ADDRESS_NOT_ALLOWED", REFUSAL_MESSAGES[refusal]);
    }

    let answers: ResolvedAddress[];
    try {
      answers = await abortable(this.resolver(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new EgressError("NETWORK_ERROR", "The site could not be found. Check the address.");
    }
    const addresses = answers
      .map(({ address }) => ({ address, family: isIP(address) }))
      .filter((a): a is ResolvedAddress => a.family === 4 || a.family === 6);
    if (addresses.length === 0 || addresses.length !== answers.length) {
      throw new EgressError("NETWORK_ERROR", "The site could not be found. Check the address.");
    }
    if (!allowListed) {
      for (const { address } of addresses) {
        const refusal = classifyAddress(address);
        if (refusal) throw new EgressError("ADDRESS_NOT_ALLOWED", REFUSAL_MESSAGES[refusal]);
      }
    }
    return { url, host, addresses };
  }
}

function normaliseHostName(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, "");
}

/** Parses and checks one URL (scheme, credentials). Numeric host forms come out canonical. */
function checkUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new EgressError("INVALID_URL", "This is not a valid web address.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new EgressError("SCHEME_NOT_ALLOWED", "Only http and https links can be fetched.");
  }
  if (url.username !== "" || url.password !== "") {
    throw new EgressError("INVALID_URL", "Links that contain a user name or password cannot be fetched.");
  }
  if (url.hostname === "") throw new EgressError("INVALID_URL", "This is not a valid web address.");
  url.hash = "";
  return url;
}

function send(
  target: Target,
  headers: Record<string, string>,
  signal: AbortSignal,
  ca: string[] | undefined,
  method = "GET",
  body?: Buffer,
): Promise<http.IncomingMessage> {
  const { url, host, addresses } = target;
  const secure = url.protocol === "https:";
  // The socket connects to the addresses checked above, never to a fresh DNS answer.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else {
      const wanted = addresses.find((a) => !options.family || a.family === options.family) ?? addresses[0];
      callback(null, wanted.address, wanted.family);
    }
  };
  const options: https.RequestOptions = {
    protocol: url.protocol,
    host,
    port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method,
    headers: body ? { ...headers, "content-length": String(body.length) } : headers,
    lookup: pinned,
    agent: false,
    signal,
  };
  // TLS: the certificate is checked against the original name (SNI too), whatever address we connect to.
  if (secure && isIP(host) === 0) options.servername = host;
  if (secure && ca) options.ca = ca;
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(options, resolve);
    req.on("error", reject);
    req.end(body);
  });
}

function readBody(response: http.IncomingMessage, maxBytes: number, tooLarge: () => EgressError): Promise<Buffer> {
  const encoding = String(response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  let stream: Readable = response;
  if (encoding === "gzip" || encoding === "x-gzip") stream = response.pipe(zlib.createGunzip());
  else if (encoding === "deflate") stream = response.pipe(zlib.createInflate());
  else if (encoding === "br") stream = response.pipe(zlib.createBrotliDecompress());
  else if (encoding !== "identity" && encoding !== "") {
    response.destroy();
    return Promise.reject(new EgressError("NETWORK_ERROR", "The site sent its content in a form that cannot be read."));
  }

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      response.destroy();
      if (stream !== response) stream.destroy();
      reject(error);
    };
    stream.on("data", (chunk: Buffer) => {
      if (settled) return;
      total += chunk.length;
      if (total > maxBytes) return fail(tooLarge());
      chunks.push(chunk);
    });
    stream.on("end", () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks));
    });
    stream.on("error", fail);
    if (stream !== response) response.on("error", fail);
    response.on("close", () => {
      if (!response.complete) fail(new EgressError("NETWORK_ERROR", "The connection to the site was interrupted."));
    });
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error("aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function dropCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name)));
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function httpErrorMessage(status: number): string {
  if (status === 404 || status === 410) return `Nothing was found at this address (HTTP ${status}).`;
  if (status === 401 || status === 403) return `The site refused access to this address (HTTP ${status}).`;
  if (status === 429) return "The site is receiving too many requests; try again later (HTTP 429).";
  if (status >= 500) return `The site had a problem answering (HTTP ${status}).`;
  return `The site answered with an error (HTTP ${status}).`;
}

function networkError(error: unknown): EgressError {
  const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
  if (code === "ECONNREFUSED") return new EgressError("NETWORK_ERROR", "The site refused the connection.");
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code === "EPROTO") {
    return new EgressError("NETWORK_ERROR", "A secure connection to the site could not be made.");
  }
  return new EgressError("NETWORK_ERROR", "The site could not be reached.");
}
