// Copies pdf.js's worker into public/ so the browser loads it from the app
// (same origin, matching the bundled pdfjs-dist version), never from a CDN.
// Run by the "postinstall" and "prebuild" npm scripts.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "package.json"));

let source;
try {
  source = path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "legacy", "build", "pdf.worker.min.mjs");
} catch {
  console.warn("copy-pdf-worker: pdfjs-dist is not installed; skipping.");
  process.exit(0);
}
if (!existsSync(source)) {
  console.warn(`copy-pdf-worker: ${source} not found; skipping.`);
  process.exit(0);
}
const target = path.join(root, "public", "pdf.worker.min.mjs");
mkdirSync(path.dirname(target), { recursive: true });
copyFileSync(source, target);
console.log(`copy-pdf-worker: ${path.relative(root, target)} updated.`);
