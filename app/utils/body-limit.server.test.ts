import { PassThrough } from "node:stream";
import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { BodyTooLarge, countedBody, DEFAULT_BODY_LIMIT, routeBodyResolver } from "./body-limit.server";

/** Route entries as the Remix build lists them (only what the resolver reads). */
const routes = {
  root: { id: "root", path: "", module: {} },
  "routes/_auth": { id: "routes/_auth", parentId: "root", module: {} },
  "routes/_auth.login": { id: "routes/_auth.login", parentId: "routes/_auth", path: "login", module: {} },
  "routes/api.documents.$id.upload": { id: "routes/api.documents.$id.upload", parentId: "root", path: "api/documents/:id/upload", module: { bodyLimit: 100 * 1024 * 1024 } },
  "routes/profile": { id: "routes/profile", parentId: "root", path: "profile", module: { bodyLimit: 1024 } },
  "routes/profile._index": { id: "routes/profile._index", parentId: "routes/profile", index: true, module: { bodyLimit: 2048 } },
} as unknown as ServerBuild["routes"];

describe("the body limit of the route a request goes to", () => {
  const limitFor = (pathname: string, search: string) => routeBodyResolver(routes)(pathname, search).limit;

  it("is the route's own, or the default for a route that declares none", () => {
    expect(limitFor("/api/documents/01J/upload", "")).toBe(100 * 1024 * 1024);
    expect(limitFor("/login", "")).toBe(DEFAULT_BODY_LIMIT);
    expect(limitFor("/no/such/page", "")).toBe(DEFAULT_BODY_LIMIT);
  });

  it("follows Remix to the action: single-fetch .data URLs, and the index route only with ?index", () => {
    expect(limitFor("/login.data", "")).toBe(DEFAULT_BODY_LIMIT);
    expect(limitFor("/profile", "")).toBe(1024);
    expect(limitFor("/profile", "?index")).toBe(2048);
    expect(limitFor("/profile.data", "?index")).toBe(2048);
  });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<number> {
  let size = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) size += chunk.byteLength;
  return size;
}

describe("a body counted as it arrives", () => {
  it("passes a body within the limit through whole", async () => {
    const source = Object.assign(new PassThrough(), { complete: true });
    const body = countedBody(source, 10, () => undefined);
    source.end(Buffer.from("0123456789"));
    expect(await readAll(body)).toBe(10);
  });

  it("errors once more than the limit has arrived, and says so", async () => {
    const source = new PassThrough();
    let refused = false;
    const body = countedBody(source, 10, () => (refused = true));
    source.write(Buffer.alloc(8));
    source.write(Buffer.alloc(8));
    await expect(readAll(body)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(refused).toBe(true);
  });

  it("errors when the client stops before the body's end, rather than ending as if it were whole", async () => {
    const source = Object.assign(new PassThrough(), { complete: false });
    const body = countedBody(source, 100, () => undefined);
    source.write(Buffer.alloc(8));
    source.destroy();
    await expect(readAll(body)).rejects.toThrow(/ended before its body/);
  });
});
