import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** Every `#projections/...` module a file imports. */
const projectionImports = (file: string) =>
  [...readFileSync(path.join(root, file), "utf8").matchAll(/from\s+"#projections\/([^"]+)"/g)].map((match) => match[1]);

describe("the read side", () => {
  it("is reached only through each projection's exported queries, never a projector's collections", () => {
    const offending = ["application", "app", "workflows"].flatMap(sourceFiles).flatMap((file) =>
      projectionImports(file)
        .filter((module) => !module.endsWith(".queries"))
        .map((module) => `${file} imports #projections/${module}`),
    );
    expect(offending).toEqual([]);
  });
});
