import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * patches/ replaces Radix Themes' extractProps, which every Text, Flex, Heading
 * and Button runs on every render, with a faster one (docs/decisions/181). The
 * oracle is the unpatched 3.3.0 function itself, taken from the patch's removed
 * line: on every prop-definition set Radix ships, both must give the same props,
 * in the same key order (the element's attribute order), the same class names
 * and styles, and leave the caller's props as they found them.
 */
type Definitions = Record<string, { type: string; values?: readonly string[]; default?: unknown }>;
type Extract = (props: Record<string, unknown>, ...definitions: Definitions[]) => Record<string, unknown>;

const esm = fileURLToPath(new URL("../../node_modules/@radix-ui/themes/dist/esm/", import.meta.url));
const patchFile = fileURLToPath(new URL("../../patches/@radix-ui+themes+3.3.0.patch", import.meta.url));
// Inside the project, where the test runner's module loader reads files.
const cache = fileURLToPath(new URL("../../node_modules/.cache/", import.meta.url));
mkdirSync(cache, { recursive: true });
const scratch = mkdtempSync(join(cache, "extract-props-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const load = (file: string) => import(/* @vite-ignore */ pathToFileURL(file).href) as Promise<Record<string, unknown>>;

async function unpatchedExtractProps(): Promise<Extract> {
  const removed = readFileSync(patchFile, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("-") && !line.startsWith("---"))
    .map((line) => line.slice(1))
    .join("\n");
  // Its imports are relative to helpers/; point them at the installed files.
  const source = removed.replace(/from"\.\/([^"]+)"/g, (_, file: string) => `from"${pathToFileURL(join(esm, "helpers", file)).href}"`);
  const classnames = pathToFileURL(createRequire(import.meta.url).resolve("classnames")).href;
  const file = join(scratch, "extract-props.mjs");
  writeFileSync(file, source.replace('from"classnames"', `from"${classnames}"`));
  return (await load(file)).extractProps as Extract;
}

async function shippedDefinitions(): Promise<Definitions[]> {
  const sets: Definitions[] = [];
  for (const folder of ["components", "props"]) {
    for (const name of readdirSync(join(esm, folder))) {
      if (!name.endsWith(".js") || (folder === "components" && !name.endsWith(".props.js"))) continue;
      for (const value of Object.values(await load(join(esm, folder, name)))) {
        const isDefinitions = value && typeof value === "object" && !Array.isArray(value) && Object.values(value).some((d) => d && typeof d === "object" && "type" in d);
        if (isDefinitions) sets.push(value as Definitions);
      }
    }
  }
  return sets;
}

/** A small deterministic generator, so a failure names a reproducible case. */
function generator(seed: number) {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

describe("Radix Themes prop extraction, as patched", () => {
  it("gives what 3.3.0 gives for every shipped definition set, valid and invalid values, responsive objects included", async () => {
    const [original, { extractProps: patched }, definitions] = await Promise.all([
      unpatchedExtractProps(),
      load(join(esm, "helpers", "extract-props.js")) as Promise<{ extractProps: Extract }>,
      shippedDefinitions(),
    ]);
    expect(definitions.length).toBeGreaterThan(50);
    const { next, pick } = generator(7);
    const valueFor = (definition: Definitions[string]) => {
      const roll = next();
      if (roll < 0.2) return undefined;
      if (roll < 0.3) return "not-a-value";
      if (roll < 0.4) return { initial: pick(definition.values ?? ["1"]), md: pick(definition.values ?? ["2"]) };
      if (roll < 0.45) return { initial: "not-a-value", lg: "3" };
      if (roll < 0.5) return true;
      if (roll < 0.55) return "12px";
      return definition.values ? pick(definition.values) : (definition.default ?? "3");
    };
    let compared = 0;
    for (let i = 0; i < 5_000; i++) {
      const sets = [pick(definitions), ...(next() < 0.6 ? [pick(definitions)] : []), ...(next() < 0.3 ? [pick(definitions)] : [])];
      const names = [...new Set(sets.flatMap((set) => Object.keys(set)))];
      const props: Record<string, unknown> = { "data-testid": "x" };
      if (next() < 0.3) props.className = "mine";
      if (next() < 0.3) props.style = { color: "red" };
      for (const name of names) if (next() < 0.4) props[name] = valueFor(sets.find((set) => name in set)![name]!);
      // Each side gets its own copy: the original writes defaults into responsive objects.
      const [mine, theirs] = [structuredClone(props), structuredClone(props)];
      const expected = original(theirs, ...sets);
      const actual = patched(mine, ...sets);
      expect(Object.entries(actual), JSON.stringify({ props, sets: sets.map((s) => Object.keys(s)) })).toEqual(Object.entries(expected));
      expect(Object.keys(actual)).toEqual(Object.keys(expected));
      expect(mine).toEqual(theirs);
      compared += 1;
    }
    expect(compared).toBe(5_000);
  });
});
