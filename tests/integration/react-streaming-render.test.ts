import { createRequire } from "node:module";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createElement as h, Suspense, type ReactNode } from "react";
import { describe, expect, it } from "vitest";

/**
 * patches/ changes React DOM's Node streaming renderer (the one entry.server
 * pipes pages through) to keep its chunks as strings until a flush and encode
 * them then, instead of encoding each small chunk as it is written
 * (docs/decisions/181). What reaches the client must not change: these pages
 * must stream to exactly the markup React's string renderer makes (which the
 * patch does not touch), whole UTF-8 characters included across every flush.
 */
// The production builds, which the server runs and the patch changes.
const build = (file: string) => createRequire(import.meta.url)(fileURLToPath(new URL(`../../node_modules/react-dom/cjs/${file}`, import.meta.url)));
const streaming = build("react-dom-server.node.production.min.js") as typeof import("react-dom/server");
const legacy = build("react-dom-server-legacy.node.production.min.js") as typeof import("react-dom/server");

function streamed(tree: ReactNode): Promise<{ html: string; writes: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
      final(done) {
        resolve({ html: Buffer.concat(chunks).toString("utf8"), writes: chunks.length });
        done();
      },
    });
    const stream = streaming.renderToPipeableStream(tree, { onAllReady: () => stream.pipe(sink), onShellError: reject, onError: reject });
  });
}

const text = (i: number) => `Row ${i}: naïve café — 東京 🚲 & <tags> "quoted" ${"x".repeat(i % 37)}`;
const page = (rows: number) =>
  h(
    "html",
    { lang: "en" },
    h("head", null, h("title", null, "Reading room"), h("style", { dangerouslySetInnerHTML: { __html: ".a{color:red}" } })),
    h(
      "body",
      { className: "rt-Theme" },
      h(
        "ul",
        { "aria-label": "Documents" },
        Array.from({ length: rows }, (_, i) =>
          h(
            "li",
            { key: i, className: `row row-${i}`, "data-state": i % 2 ? "open" : "closed", style: { marginTop: i, WebkitLineClamp: 2 }, hidden: i === 3 },
            h("svg", { viewBox: "0 0 24 24", "aria-hidden": true }, h("path", { d: `M${i} 0h24` })),
            h("input", { type: "checkbox", defaultChecked: i % 3 === 0, "aria-label": `Select ${i}` }),
            text(i),
            i,
          ),
        ),
      ),
      h("script", { dangerouslySetInnerHTML: { __html: "window.__ready = true;" } }),
    ),
  );

describe("a page streamed by the server renderer", () => {
  it.each([1, 40, 400])("is the string renderer's markup with the doctype, for %i rows", async (rows) => {
    const { html } = await streamed(page(rows));
    expect(html).toBe(`<!DOCTYPE html>${legacy.renderToString(page(rows))}`);
    expect(html).toContain("東京 🚲");
  });

  it("arrives in several writes when it is long, none splitting a character", async () => {
    const { html, writes } = await streamed(page(2_000));
    expect(writes).toBeGreaterThan(1);
    expect(html).not.toContain("\uFFFD");
    expect(html.match(/🚲/g)).toHaveLength(2_000);
  });

  it("streams a suspended part after the shell and puts it in place", async () => {
    let release!: () => void;
    const ready = new Promise<void>((resolve) => (release = resolve));
    let loaded = false;
    function Slow() {
      if (!loaded) throw ready.then(() => void (loaded = true));
      return h("p", { id: "late" }, "Loaded — ✓");
    }
    const tree = h("html", null, h("body", null, h("main", null, "Shell", h(Suspense, { fallback: h("span", null, "Loading…") }, h(Slow)))));
    const pending = streamed(tree);
    setTimeout(release, 10);
    const { html } = await pending;
    expect(html.startsWith("<!DOCTYPE html><html><body><main>Shell")).toBe(true);
    expect(html).toContain('<p id="late">Loaded — ✓</p>');
  });
});
