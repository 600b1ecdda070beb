// Copies pdf.js's worker into public/ so the browser loads it from the app
// (same origin, matching the bundled pdfjs-dist version), never from a CDN;
// and Scalar's standalone bundle for the API reference at /api/docs (decision 221).
// Run by the "postinstall" and "prebuild" npm scripts.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "package.json"));

copyScalar();

let buildDir;
try {
  buildDir = path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "legacy", "build");
} catch {
  console.warn("copy-pdf-worker: pdfjs-dist is not installed; skipping.");
  process.exit(0);
}
// The worker, and the library itself: the browser imports it at run time (see app/components/library/pdfjs.ts).
for (const file of ["pdf.worker.min.mjs", "pdf.min.mjs"]) {
  const source = path.join(buildDir, file);
  if (!existsSync(source)) {
    console.warn(`copy-pdf-worker: ${source} not found; skipping.`);
    continue;
  }
  const target = path.join(root, "public", file);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(source, target);
  console.log(`copy-pdf-worker: ${path.relative(root, target)} updated.`);
}

function copyScalar() {
  let source;
  try {
    // The package exports no package.json; its main entry sits in dist/ beside browser/.
    source = path.join(path.dirname(require.resolve("@scalar/api-reference")), "browser", "standalone.js");
  } catch {
    console.warn("copy-pdf-worker: @scalar/api-reference is not installed; /api/docs will say so.");
    return;
  }
  const target = path.join(root, "public", "api-docs", "scalar.js");
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(source, target);
  console.log(`copy-pdf-worker: ${path.relative(root, target)} updated.`);
}
