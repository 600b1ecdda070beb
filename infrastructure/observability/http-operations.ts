import { timingSafeEqual } from "node:crypto";
import { type AgnosticRouteObject as RouteObject, matchRoutes } from "@remix-run/router";
import type { NextFunction, Request, Response } from "express";
import { classifyAddress } from "../egress/address-policy";
import type { AppRuntime } from "../container";
import { askPrimary } from "./primary-channel";
import { checkReadiness } from "./readiness";

interface BuildRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
}

/** Served by server.mjs itself, beside the app's routes. */
const OPERATOR_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);
/** Headers a proxy adds for the client it forwards. */
const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** For a splat route that routes on its own (the public API): the template a path names under it, null for none. */
export type SplatRoutes = Record<string, (pathname: string) => string | null>;

/**
 * The route pattern a path matched in the Remix build ("/workspace/:id"), so
 * request metrics never carry an id. The tree is built once per build; what
 * matches no route of the app is "unmatched". A splat route listed in `splats`
 * is named by what its own router matches ("/api/v1/documents/:id").
 */
export function routePatternOf(routes: Record<string, BuildRoute | undefined>, splats: SplatRoutes = {}): (pathname: string) => string {
  const all = Object.values(routes).filter((route): route is BuildRoute => route !== undefined);
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    all
      .filter((route) => route.parentId === parentId)
      .map((route) => (route.index ? { id: route.id, path: route.path, index: true } : { id: route.id, path: route.path, children: childrenOf(route.id) }));
  const tree = childrenOf(undefined);
  return (pathname) => {
    if (OPERATOR_PATHS.has(pathname)) return pathname;
    if (pathname.startsWith("/build/")) return "/build/*";
    // A malformed escape matches nothing (Express answers 400), and the router would warn of it on the console.
    if (!decodes(pathname)) return "unmatched";
    const matches = matchRoutes(tree, pathname);
    if (!matches) return "unmatched";
    const pattern = `/${matches.map((match) => match.route.path ?? "").filter(Boolean).join("/")}`.replace(/\/+/g, "/");
    return splats[pattern]?.(pathname) ?? pattern;
  };
}

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The operators' routes and the request meter, mounted by server.mjs (issue 32). */
export function httpOperations(runtime: AppRuntime, build: { routes: Record<string, BuildRoute | undefined> }, role: "app" | "web", splats: SplatRoutes = {}) {
  const { metrics, readinessSources } = runtime.operations;
  const { tracing } = runtime;
  const patternOf = routePatternOf(build.routes, splats);
  const token = runtime.config.operations.metricsToken;
  const inCluster = role === "web" && typeof process.send === "function";

  /** Counts every request with its route pattern, method and status, and times it (RED). */
  const measureRequests = (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once("finish", () => {
      const route = patternOf(req.path);
      metrics.requestServed(route, METHODS.has(req.method) ? req.method : "OTHER", res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };

  /**
   * Each request is the root of its trace (or continues a caller's `traceparent`), current for everything
   * the request does; named by its route pattern once it is known. Probes and built assets are not traced.
   */
  const traceRequests = (req: Request, res: Response, next: NextFunction) => {
    if (!tracing.enabled || OPERATOR_PATHS.has(req.path) || req.path.startsWith("/build/")) return next();
    const traceparent = req.get("traceparent");
    const parent = traceparent ? { traceparent, tracestate: req.get("tracestate") } : undefined;
    tracing.openSpan(`${req.method} request`, { kind: "server", parent, attributes: { "http.request.method": req.method } }, (span) => {
      res.once("close", () => {
        const route = patternOf(req.path);
        span.rename(`${req.method} ${route}`);
        span.set({ "http.route": route, "http.response.status_code": res.statusCode });
        span.end(res.statusCode >= 500 ? new Error(`HTTP ${res.statusCode}`) : undefined);
      });
      next();
    });
  };

  /**
   * With METRICS_TOKEN: its bearer token. Without: a client on this machine that no proxy forwarded (a scraper
   * beside the app); a reverse proxy on the same host connects from loopback for every client it forwards.
   */
  const isOperator = (req: Request): boolean => {
    if (!token) return classifyAddress(req.socket.remoteAddress ?? "") === "loopback" && !FORWARDING_HEADERS.some((header) => req.get(header) !== undefined);
    const given = Buffer.from(req.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "");
    const expected = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const metricsRoute = async (req: Request, res: Response) => {
    if (!isOperator(req)) {
      res.status(401).set("WWW-Authenticate", "Bearer").type("text/plain").send("Unauthorized");
      return;
    }
    try {
      // In the cluster the primary sums every process's registry; one process answers its own.
      const text = inCluster ? ((await askPrimary("metrics", 10_000)) as { text: string }).text : await metrics.text();
      // A new connection for each scrape: one kept alive to a web process that has since died fails the next scrape.
      res.set({ "Cache-Control": "no-store", Connection: "close" }).type(metrics.contentType).send(text);
    } catch (error) {
      runtime.logger.error({ err: error }, "metrics could not be gathered");
      res.status(503).type("text/plain").send("Metrics are unavailable right now.");
    }
  };

  /** Anyone may ask whether the app is ready (load balancers do); which check fails is for operators. */
  const readinessRoute = async (req: Request, res: Response) => {
    const readiness = await checkReadiness({
      ...readinessSources,
      backgroundAlive: inCluster ? async () => ((await askPrimary("background", 2_000)) as { alive: boolean }).alive : async () => true,
      onFailure: (check, error) => runtime.logger.warn({ check, err: error }, "readiness check failed"),
    });
    res.status(readiness.ready ? 200 : 503).set("Cache-Control", "no-store").json(isOperator(req) ? readiness : { ready: readiness.ready });
  };

  return { measureRequests, traceRequests, metricsRoute, readinessRoute };
}
