import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * A real document of the shared corpus (../shared/corpus beside the project;
 * a worktree one level deeper looks one more level up), or undefined when this
 * machine has no corpus: the suite then says it is skipped and why.
 */
export function corpusFile(name: string): string | undefined {
  return [path.resolve(ROOT, "../shared/corpus"), path.resolve(ROOT, "../../shared/corpus")].map((dir) => path.join(dir, name)).find((file) => existsSync(file));
}
