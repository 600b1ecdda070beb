// Writes a Brotli (.br) and a gzip (.gz) copy, at their highest levels, beside
// every compressible file under public/ (the built client assets, pdf.js), so
// the server sends them as they are instead of compressing them on every
// request (issue 20; docs/decisions/151). Run by `npm run build` after the
// Remix build; server.mjs serves a copy only while it is newer than its file.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const publicDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "public");
const COMPRESSIBLE = /\.(m?js|css|svg|json|map|txt|html)$/;
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

let written = 0;
let before = 0;
let after = 0;
for (const file of files(publicDir)) {
  const source = readFileSync(file);
  if (source.length < MIN_BYTES) continue;
  const mtime = statSync(file).mtimeMs;
  const fresh = (copy) => {
    try {
      return statSync(copy).mtimeMs >= mtime;
    } catch {
      return false;
    }
  };
  if (!fresh(`${file}.br`)) {
    const br = zlib.brotliCompressSync(source, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length },
    });
    writeFileSync(`${file}.br`, br);
    written += 1;
    before += source.length;
    after += br.length;
  }
  if (!fresh(`${file}.gz`)) {
    writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: 9 }));
    written += 1;
  }
}
console.log(`precompress-assets: ${written} files written${before ? `; Brotli ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB` : ""}`);
