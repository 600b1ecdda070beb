// The entry point of an extraction thread (text-extractor.ts starts them through piscina). The
// thread runs the TypeScript sources through tsx, the same way under vitest, tsx and the built
// server: the server's bundle (build/index.js) holds no code a thread could load on its own.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// The tsconfig's paths resolve the "#infrastructure/…" imports.
register({ tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) });

export const { countPages, extract, readPdf, finishPdf } = await import("./extraction-thread.ts");
