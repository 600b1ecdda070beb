import type { LoaderFunctionArgs } from "@remix-run/node";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The API reference (decision 221): Scalar's standalone bundle, copied into
 * public/api-docs at install and build, renders /api/v1/openapi.json. Nothing
 * comes from a CDN; the policy below allows this origin's scripts and data
 * only (Scalar sets styles inline).
 */
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

const bundled = () => existsSync(path.join(process.cwd(), "public", "api-docs", "scalar.js"));

export function loader(_: LoaderFunctionArgs) {
  const body = bundled()
    ? `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>DocuChat API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api-docs/page.css">
</head>
<body>
<header class="dc-docs-header">
<a class="dc-docs-header__brand" href="/"><img src="/favicon.svg" alt="" width="28" height="28"><span>DocuChat</span></a>
<span class="dc-docs-header__title">API reference</span>
<nav class="dc-docs-header__links" aria-label="DocuChat">
<a href="/profile/api-tokens">API tokens</a>
<a href="/help/api-tokens">Help</a>
<a class="dc-docs-header__back" href="/">Back to DocuChat</a>
</nav>
</header>
<div id="docuchat-api-reference"></div>
<script src="/api-docs/scalar.js"></script>
<script src="/api-docs/init.js"></script>
</body>
</html>`
    : `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>DocuChat API reference</title></head><body><p>The reference page's assets are missing (run <code>npm run build</code>). The API is described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></body></html>`;
  return new Response(body, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=300" },
  });
}
