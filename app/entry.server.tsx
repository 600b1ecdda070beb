import { randomBytes } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { logContext } from "#infrastructure/logging/logger";
import { httpOperations as operatorRoutes } from "#infrastructure/observability/http-operations";
import { API_PREFIX, apiRouteTemplate } from "./public-api/router.server";
import { NonceProvider } from "./utils/nonce-provider";
import { getRuntime } from "./utils/services.server";

const ABORT_DELAY = 5_000;

/** server.mjs calls these: start the runtime at boot, and tag each request's log lines. */
export const startRuntime = getRuntime;
export const runWithRequestId = <T,>(requestId: string, fn: () => T): T => logContext.run({ requestId }, fn);
export { crossSiteRefusal } from "./utils/cross-site.server";
export { createBodyLimitedRequestHandler } from "./utils/body-limit.server";
/** The operators' routes; the public API's requests are measured per operation, not as one "/api/v1/*". */
export const httpOperations = (...[runtime, build, role]: Parameters<typeof operatorRoutes>) => operatorRoutes(runtime, build, role, { [`${API_PREFIX}/*`]: apiRouteTemplate });

/**
 * Chromium applies form-action to the redirect that follows a form POST, so
 * 'Continue with Google' (POST /auth/oidc/start -> 302 to the provider) needs
 * the operator-configured provider's origin here.
 */
const OIDC_FORM_TARGET = (() => {
  try {
    return process.env.OIDC_ISSUER ? ` ${new URL(process.env.OIDC_ISSUER).origin}` : "";
  } catch {
    return "";
  }
})();

/**
 * The configured payment provider's hosted checkout (docs/decisions/111):
 * Stripe Checkout is a page the Upgrade form is redirected to; Razorpay's
 * checkout is a script that opens its own frame and calls its API.
 */
const PAYMENT_SOURCES = (() => {
  const originOf = (url: string | undefined) => {
    try {
      return url ? new URL(url).origin : "";
    } catch {
      return "";
    }
  };
  if (process.env.STRIPE_SECRET_KEY) {
    return { form: ` https://checkout.stripe.com${process.env.STRIPE_API_URL ? ` ${originOf(process.env.STRIPE_API_URL)}` : ""}`, script: "", frame: "", connect: "" };
  }
  if (process.env.RAZORPAY_KEY_ID) {
    const checkout = originOf(process.env.RAZORPAY_CHECKOUT_URL) || "https://checkout.razorpay.com";
    const api = originOf(process.env.RAZORPAY_API_URL) || "https://api.razorpay.com";
    return { form: "", script: ` ${checkout}`, frame: ` ${api} https://*.razorpay.com`, connect: ` ${api} https://*.razorpay.com` };
  }
  return { form: "", script: "", frame: "", connect: "" };
})();

/** Scripts need the per-request nonce; styles may be inline (Radix Themes sets CSS variables inline). */
function contentSecurityPolicy(nonce: string, isDev: boolean) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${PAYMENT_SOURCES.script}${isDev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // Recordings: the upload's preview (blob:) and the transcript player and server voice (same origin).
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self'${PAYMENT_SOURCES.connect}${isDev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    `frame-src 'self'${PAYMENT_SOURCES.frame}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${OIDC_FORM_TARGET}${PAYMENT_SOURCES.form}`,
  ].join("; ");
}

/**
 * The page's body as React writes it, handed on one chunk per React flush.
 * React writes in 2 KB pieces and calls `flush()` when a batch is complete
 * (the convention zlib streams follow); each piece passed on alone crossed the
 * web-stream bridge and the compressor separately, about 1 ms of CPU a page.
 */
class CoalescedBody extends Transform {
  private pending: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending.push(chunk);
    done();
  }

  /** Called by React after each batch of writes (a shell, a resolved boundary). */
  flush(): void {
    if (this.pending.length === 0) return;
    this.push(this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending));
    this.pending = [];
  }

  override _flush(done: TransformCallback): void {
    this.flush();
    done();
  }
}

/**
 * What a loader, an action or a render threw, as one log line with the request's ids (docs/logs.md) rather
 * than Remix's multi-line console.error. Remix's own refusals (a POST to a route without an action) are the
 * client's doing: warn. A client that went away is not an error.
 */
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (request.signal.aborted) return;
  const refusal = isRouteErrorResponse(error) ? error : null;
  const err = refusal ? ((refusal as { error?: unknown }).error ?? new Error(`${refusal.status} ${refusal.statusText}`)) : error;
  const line = { err, method: request.method, path: new URL(request.url).pathname, ...(refusal ? { status: refusal.status } : {}) };
  void getRuntime().then(({ logger }) => (refusal && refusal.status < 500 ? logger.warn(line, "request refused") : logger.error(line, "request failed")));
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = randomBytes(16).toString("base64");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, process.env.NODE_ENV === "development"));
  responseHeaders.set("X-Content-Type-Options", "nosniff");
  responseHeaders.set("Referrer-Policy", "same-origin");
  responseHeaders.set("X-Frame-Options", "DENY");
  const bot = isbot(request.headers.get("user-agent") ?? "");

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Cleared once the page is written: a late abort() would end a finished stream again.
    const abortTimer = setTimeout(() => abort(), ABORT_DELAY);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [bot ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new CoalescedBody();
          body.once("finish", () => clearTimeout(abortTimer));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Before the shell, Remix renders the error boundary and reports the error through handleError.
          if (shellRendered) handleError(error, { request });
        },
      },
    );
  });
}
