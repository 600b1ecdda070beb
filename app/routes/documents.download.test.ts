import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadTextDocument } from "../../tests/support/library-fixtures";
import { signedInUser } from "../../tests/support/route-session";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { loader as download } from "./documents.download.$id";

/** GET /documents/download/{id}: the original with a strong validator, in byte ranges, to its readers only, asked again before each use (decision 160). */
let env: Awaited<ReturnType<typeof createTestRuntime>>;
const cookies: Record<"maria" | "eve", string> = {} as never;
const TEXT = "0123456789".repeat(100) + "the end";
let documentId = "";

async function get(cookie: string, headers: Record<string, string> = {}, id = documentId): Promise<Response> {
  const request = new Request(`http://localhost/documents/download/${id}?inline=1`, { headers: { Cookie: cookie, ...headers } });
  try {
    return (await download({ request, params: { id }, context: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

beforeAll(async () => {
  env = await createTestRuntime();
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  const maria = await signedInUser(env.runtime, "maria");
  cookies.maria = maria.cookie;
  cookies.eve = (await signedInUser(env.runtime, "eve")).cookie;
  documentId = await uploadTextDocument(env.runtime, maria.id, "digits.txt", TEXT);
}, 60_000);

afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

describe("downloading a document's original", () => {
  it("answers the whole file with a strong ETag and byte ranges, cached only to be revalidated", async () => {
    const response = await get(cookies.maria);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(TEXT);
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("ETag")).toMatch(/^"[^"]+"$/);
    expect(response.headers.get("Cache-Control")).toBe("private, no-cache, no-transform");
    expect(response.headers.get("Vary")).toBe("Cookie");
    expect(response.headers.get("Content-Length")).toBe(String(TEXT.length));
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline; filename="digits\.txt"/);
  });

  it("answers a range with 206 and Content-Range, and only those bytes", async () => {
    const first = await get(cookies.maria, { Range: "bytes=10-19" });
    expect(first.status).toBe(206);
    expect(first.headers.get("Content-Range")).toBe(`bytes 10-19/${TEXT.length}`);
    expect(first.headers.get("Content-Length")).toBe("10");
    expect(await first.text()).toBe("0123456789");
    const tail = await get(cookies.maria, { Range: "bytes=-7" });
    expect(tail.status).toBe(206);
    expect(await tail.text()).toBe("the end");
  });

  it("answers 416 with the size for a range past the end", async () => {
    const response = await get(cookies.maria, { Range: `bytes=${TEXT.length}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get("Content-Range")).toBe(`bytes */${TEXT.length}`);
  });

  it("answers 304 when the browser holds the same version, and ignores a range whose If-Range names another", async () => {
    const etag = (await get(cookies.maria)).headers.get("ETag")!;
    const unchanged = await get(cookies.maria, { "If-None-Match": etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("ETag")).toBe(etag);
    expect(await unchanged.text()).toBe("");
    expect((await get(cookies.maria, { Range: "bytes=0-9", "If-Range": etag })).status).toBe(206);
    const stale = await get(cookies.maria, { Range: "bytes=0-9", "If-Range": '"another-version"' });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(TEXT);
  });

  it("is a 404 to another user, whatever validators or ranges they send", async () => {
    const etag = (await get(cookies.maria)).headers.get("ETag")!;
    const attempts: Record<string, string>[] = [{}, { Range: "bytes=0-9" }, { "If-None-Match": etag }, { Range: "bytes=99999-" }];
    for (const headers of attempts) {
      const response = await get(cookies.eve, headers);
      expect(response.status, JSON.stringify(headers)).toBe(404);
      expect(response.headers.get("ETag")).toBeNull();
    }
  });
});
