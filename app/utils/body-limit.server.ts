import type { Readable } from "node:stream";
import { createRequestHandler as createRemixHandler, type ServerBuild, writeReadableStreamToWritable } from "@remix-run/node";
// A CommonJS package: Node names its exports only through the default import.
import remixRouter, { type AgnosticRouteObject } from "@remix-run/router";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { acceptedBodyTypes, type BodyProblem, type BodyTypesExport, isFormType, mediaTypeOf, unreadableForm, unreadableFormProblem, unsupportedBodyType } from "./body-type.server";

const { matchRoutes } = remixRouter;

/**
 * Every request body is read only up to its route's limit, counted as bytes
 * arrive, with or without a Content-Length (ARCHITECTURE §8, issue 30). A route
 * whose body may be larger than a form says so with `export const bodyLimit`;
 * every other route, a new one included, gets DEFAULT_BODY_LIMIT. Routes that
 * take files keep their own, tighter checks (per document type, say) inside
 * this bound (docs/decisions/200).
 */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** What a route module may export to raise (or lower) its limit. */
export type BodyLimitExport = { bodyLimit?: number };

export const bodyTooLargeMessage = (limit: number) => `The request body is larger than ${formatBytes(limit)}, this address's limit.`;

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(bodyTooLargeMessage(limit));
    this.name = "BodyTooLarge";
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

type RouteModule = BodyLimitExport & BodyTypesExport & { action?: unknown };
type LimitedRoute = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; bodyLimit: number; module: RouteModule; children?: LimitedRoute[] };

/** What the route an action request goes to reads: at most `limit` bytes, of one of `accepts` (null: the route checks). */
export type RouteBody = { limit: number; accepts: readonly string[] | null };

/** The body rules of the route an action request for `pathname` is handled by (Remix's rules: `.data`, `?index`). */
export function routeBodyResolver(routes: ServerBuild["routes"]): (pathname: string, search: string) => RouteBody {
  const children = new Map<string | undefined, LimitedRoute[]>();
  for (const route of Object.values(routes)) {
    const module = route.module as RouteModule;
    const limit = module.bodyLimit;
    const node: LimitedRoute = {
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      bodyLimit: typeof limit === "number" && limit > 0 ? limit : DEFAULT_BODY_LIMIT,
      module,
    };
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(node);
    children.set(route.parentId, siblings);
  }
  const tree = (parentId: string | undefined): LimitedRoute[] =>
    (children.get(parentId) ?? []).map((route) => {
      const nested = tree(route.id);
      return nested.length > 0 && !route.index ? { ...route, children: nested } : route;
    });
  const routeTree = tree(undefined);
  return (pathname, search) => {
    // Single fetch posts `/signup.data` for `/signup`, and `/_root.data` for `/`.
    const path = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const matches = matchRoutes(routeTree as AgnosticRouteObject[], path) ?? [];
    let target = matches[matches.length - 1];
    // A form posted to a folder's URL goes to its index route only with `?index`.
    if (target?.route.index && !new URLSearchParams(search).has("index")) target = matches[matches.length - 2];
    const route = target?.route as unknown as LimitedRoute | undefined;
    if (!route) return { limit: DEFAULT_BODY_LIMIT, accepts: null };
    return { limit: route.bodyLimit, accepts: acceptedBodyTypes(route.module, path) };
  };
}

/**
 * The request's body as a web stream that errors with BodyTooLarge once more
 * than `limit` bytes have arrived. It reads only as fast as it is read (so a
 * refused body stops at the limit: the socket is no longer read), and a body
 * cut off by the client errors too, rather than ending as if it were whole.
 */
export function countedBody(source: Readable & { complete?: boolean }, limit: number, onTooLarge: () => void): ReadableStream<Uint8Array> {
  let received = 0;
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: Error) => {
          if (settled) return;
          settled = true;
          source.off("data", onData);
          source.pause();
          controller.error(error);
        };
        const onData = (chunk: Buffer) => {
          if (settled) return;
          received += chunk.byteLength;
          if (received > limit) {
            onTooLarge();
            fail(new BodyTooLarge(limit));
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        };
        source.on("data", onData);
        source.once("end", () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        source.once("error", fail);
        source.once("close", () => {
          if (!source.complete) fail(new Error("The request ended before its body did."));
        });
      },
      pull() {
        if (!settled) source.resume();
      },
      cancel() {
        settled = true;
        source.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** How long a refused body is still read (and thrown away) after the answer, so the client reads the answer. */
const LINGER_MS = 2_000;

/**
 * Closes the connection once the answer is sent, without reading the rest of
 * the body. A socket closed while the client is still sending is reset, and a
 * reset can take the unread answer with it (RFC 9112 §9.6): so the server
 * half-closes and discards what is still in flight for a moment ("lingering
 * close", as nginx does), then closes.
 */
function closeAfterAnswer(req: ExpressRequest, res: ExpressResponse) {
  res.set("Connection", "close");
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.end();
    req.removeAllListeners("data");
    req.on("data", () => undefined);
    req.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/** 413 naming the limit; the connection closes after it, so the rest of the body is never read. */
function sendTooLarge(req: ExpressRequest, res: ExpressResponse, limit: number) {
  const error = new BodyTooLarge(limit);
  res.status(413);
  closeAfterAnswer(req, res);
  const wantsJson = req.path.startsWith("/api/") || (req.get("accept") ?? "").includes("application/json");
  if (wantsJson) res.json({ code: "TOO_LARGE", message: error.message, limit });
  else res.type("text/plain").send(error.message);
}

/** A body the route does not read, as an RFC 9457 problem; the connection closes after it if the body was left unread. */
function sendBodyProblem(req: ExpressRequest, res: ExpressResponse, { accepts, ...problem }: BodyProblem) {
  if (!req.complete) closeAfterAnswer(req, res);
  res.status(problem.status);
  res.set({ "Content-Type": "application/problem+json", "Accept-Post": accepts.join(", ") });
  res.send(JSON.stringify({ type: "about:blank", ...problem, accepts }));
}

/** The whole body, read at most to `limit` bytes as they arrive. */
async function readCounted(req: ExpressRequest, limit: number): Promise<ArrayBuffer> {
  return new Response(countedBody(req, limit, () => undefined)).arrayBuffer();
}

/**
 * @remix-run/express's request handler (whose parts it does not export), with the request body read through
 * `countedBody` at its route's limit. A body declared larger is refused before
 * any of it is read; one that grows past the limit is refused with the same
 * 413 whatever the route made of the error it saw.
 */
export function createBodyLimitedRequestHandler({ build, mode }: { build: ServerBuild; mode?: string }) {
  const handleRequest = createRemixHandler(build, mode);
  const bodyFor = routeBodyResolver(build.routes);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const url = new URL(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`);
      const { limit, accepts } = hasBody ? bodyFor(url.pathname, url.search) : { limit: 0, accepts: null };
      if (hasBody && Number(req.get("content-length") ?? 0) > limit) return sendTooLarge(req, res, limit);
      // A form is read here, whole (within its limit), and handed on only if it is one.
      let form: ArrayBuffer | undefined;
      if (hasBody && accepts) {
        const contentType = req.get("content-type") ?? "";
        const unsupported = unsupportedBodyType(accepts, contentType);
        if (unsupported) return sendBodyProblem(req, res, unsupported);
        if (isFormType(mediaTypeOf(contentType))) {
          try {
            form = await readCounted(req, limit);
          } catch (error) {
            if (error instanceof BodyTooLarge) return sendTooLarge(req, res, limit);
            // Cut off by the client: a part of a form is not the form.
            return sendBodyProblem(req, res, unreadableFormProblem(accepts));
          }
          const unreadable = await unreadableForm(form, contentType, accepts);
          if (unreadable) return sendBodyProblem(req, res, unreadable);
        }
      }

      let tooLarge = false;
      const controller = new AbortController();
      let answered = false;
      res.on("finish", () => (answered = true));
      res.on("close", () => answered || controller.abort());
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
      }
      const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
      if (form) init.body = form;
      else if (hasBody) {
        init.body = countedBody(req, limit, () => {
          tooLarge = true;
          // An aborted request's errors are not logged as failures: the refusal below is the answer.
          controller.abort(new BodyTooLarge(limit));
        });
        init.duplex = "half";
      }
      const response = await handleRequest(new Request(url.href, init)).catch((error: unknown) => {
        if (tooLarge) return null;
        throw error;
      });
      if (tooLarge || !response) {
        await response?.body?.cancel().catch(() => undefined);
        return sendTooLarge(req, res, limit);
      }
      // A body the route did not read to its end is not drained after the answer: the connection closes.
      if (hasBody && !req.complete) closeAfterAnswer(req, res);
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [name, value] of response.headers.entries()) res.append(name, value);
      if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      next(error);
    }
  };
}
