import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BlobStore } from "#application/ports/blob-store";

/**
 * The contract every BlobStore adapter passes (local files, S3). Register it
 * from a *.test.ts file: blobStoreContract("LocalBlobStore", async () => ...).
 */
export function blobStoreContract(
  name: string,
  makeStore: () => Promise<{ store: BlobStore; cleanup(): Promise<void> }>,
): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await makeStore());
    });

    afterEach(async () => {
      await cleanup();
    });

    async function readAll(body: Readable): Promise<Buffer> {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
      return Buffer.concat(chunks);
    }

    it("round-trips a Buffer body with contentType and metadata", async () => {
      const bytes = Buffer.from("%PDF-1.7 hello");
      const info = await store.put("users/u1/docs/d1.pdf", bytes, {
        contentType: "application/pdf",
        metadata: { "original-name": "report.pdf", pages: "3" },
      });
      expect(info).toEqual({
        key: "users/u1/docs/d1.pdf",
        size: bytes.length,
        contentType: "application/pdf",
        metadata: { "original-name": "report.pdf", pages: "3" },
      });
      const blob = await store.get("users/u1/docs/d1.pdf");
      expect(blob).not.toBeNull();
      expect(blob?.contentType).toBe("application/pdf");
      expect(blob?.metadata).toEqual({ "original-name": "report.pdf", pages: "3" });
      expect(blob?.size).toBe(bytes.length);
      expect(await readAll(blob!.body)).toEqual(bytes);
    });

    it("round-trips a stream body, binary-safe and larger than one chunk", async () => {
      const bytes = Buffer.alloc(300_000);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
      const body = Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000, 200_001), bytes.subarray(200_001)]);
      const info = await store.put("streams/big.bin", body, { contentType: "application/octet-stream" });
      expect(info.size).toBe(bytes.length);
      expect(info.metadata).toEqual({});
      const blob = await store.get("streams/big.bin");
      // Buffer.equals, not toEqual: a deep element-by-element diff of 300 kB is needlessly slow.
      expect((await readAll(blob!.body)).equals(bytes)).toBe(true);
    });

    it("reads only a byte range when asked, and still tells the whole size", async () => {
      const bytes = Buffer.alloc(200_000);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 256;
      await store.put("ranges/book.pdf", bytes, { contentType: "application/pdf", metadata: { pages: "352" } });
      const middle = await store.get("ranges/book.pdf", { start: 65_536, end: 131_071 });
      expect(middle?.size).toBe(bytes.length);
      expect(middle?.contentType).toBe("application/pdf");
      expect((await readAll(middle!.body)).equals(bytes.subarray(65_536, 131_072))).toBe(true);
      const last = await store.get("ranges/book.pdf", { start: bytes.length - 1, end: bytes.length - 1 });
      expect(await readAll(last!.body)).toEqual(bytes.subarray(bytes.length - 1));
      expect(await store.get("ranges/missing.pdf", { start: 0, end: 9 })).toBeNull();
    });

    it("stores an empty blob", async () => {
      await store.put("empty.txt", Buffer.alloc(0), { contentType: "text/plain" });
      const blob = await store.get("empty.txt");
      expect(blob?.size).toBe(0);
      expect(await readAll(blob!.body)).toEqual(Buffer.alloc(0));
    });

    it("head describes a blob without its body", async () => {
      await store.put("avatars/u1.png", Buffer.from("png"), { contentType: "image/png", metadata: { width: "64" } });
      expect(await store.head("avatars/u1.png")).toEqual({
        key: "avatars/u1.png",
        size: 3,
        contentType: "image/png",
        metadata: { width: "64" },
      });
    });

    it("answers null for a missing key", async () => {
      expect(await store.get("nope/missing.txt")).toBeNull();
      expect(await store.head("nope/missing.txt")).toBeNull();
    });

    it("overwrites a key: new bytes, type and metadata", async () => {
      await store.put("doc.txt", Buffer.from("first version, longer"), {
        contentType: "text/plain",
        metadata: { v: "1" },
      });
      await store.put("doc.txt", Buffer.from("second"), { contentType: "text/markdown", metadata: { v: "2" } });
      const blob = await store.get("doc.txt");
      expect(blob).toMatchObject({ size: 6, contentType: "text/markdown", metadata: { v: "2" } });
      expect((await readAll(blob!.body)).toString()).toBe("second");
      expect(await store.list("doc")).toHaveLength(1);
    });

    it("deletes, idempotently", async () => {
      await store.put("gone/soon.txt", Buffer.from("x"), { contentType: "text/plain" });
      await store.delete("gone/soon.txt");
      expect(await store.get("gone/soon.txt")).toBeNull();
      expect(await store.head("gone/soon.txt")).toBeNull();
      await expect(store.delete("gone/soon.txt")).resolves.toBeUndefined();
      await expect(store.delete("never/was.txt")).resolves.toBeUndefined();
    });

    it("lists by prefix, in key order", async () => {
      for (const key of ["users/u1/b.txt", "users/u1/a.txt", "users/u1/nested/c.txt", "users/u10/x.txt", "users/u2/y.txt"]) {
        await store.put(key, Buffer.from(key), { contentType: "text/plain" });
      }
      const keys = async (prefix: string) => (await store.list(prefix)).map((b) => b.key);
      expect(await keys("users/u1/")).toEqual(["users/u1/a.txt", "users/u1/b.txt", "users/u1/nested/c.txt"]);
      // A prefix is a string prefix, not a folder: "users/u1" also matches "users/u10/…".
      expect(await keys("users/u1")).toEqual([
        "users/u1/a.txt",
        "users/u1/b.txt",
        "users/u1/nested/c.txt",
        "users/u10/x.txt",
      ]);
      expect(await keys("users/u3/")).toEqual([]);
      const [first] = await store.list("users/u1/a");
      expect(first).toEqual({ key: "users/u1/a.txt", size: 14, contentType: "text/plain", metadata: {} });
    });

    it("deletes by prefix and says how many", async () => {
      for (const key of ["purge/u1/a", "purge/u1/deep/b", "purge/u2/c"]) {
        await store.put(key, Buffer.from("x"), { contentType: "text/plain" });
      }
      expect(await store.deletePrefix("purge/u1/")).toBe(2);
      expect(await store.list("purge/")).toEqual([expect.objectContaining({ key: "purge/u2/c" })]);
      expect(await store.deletePrefix("purge/u1/")).toBe(0);
      // A deleted prefix can be written again.
      await store.put("purge/u1/a", Buffer.from("again"), { contentType: "text/plain" });
      expect(await store.head("purge/u1/a")).not.toBeNull();
    });

    it("refuses to delete everything with an empty prefix", async () => {
      await store.put("keep.txt", Buffer.from("x"), { contentType: "text/plain" });
      await expect(store.deletePrefix("")).rejects.toThrow();
      expect(await store.head("keep.txt")).not.toBeNull();
    });

    it.each([
      ["empty", ""],
      ["absolute", "/etc/passwd"],
      ["parent segment", "../outside.txt"],
      ["inner parent segment", "users/../../outside.txt"],
      ["dot segment", "users/./a.txt"],
      ["backslash", "users\\..\\a.txt"],
      ["NUL", "users/a\u0000.txt"],
      ["newline", "users/a\n.txt"],
      ["empty segment", "users//a.txt"],
      ["trailing slash", "users/u1/"],
    ])("rejects a hostile key (%s)", async (_label, key) => {
      await expect(store.put(key, Buffer.from("x"), { contentType: "text/plain" })).rejects.toThrow();
      await expect(store.get(key)).rejects.toThrow();
      await expect(store.head(key)).rejects.toThrow();
      await expect(store.delete(key)).rejects.toThrow();
    });

    it.each([
      ["parent segment", "../"],
      ["absolute", "/"],
      ["backslash", "a\\b"],
    ])("rejects a hostile prefix (%s)", async (_label, prefix) => {
      await expect(store.list(prefix)).rejects.toThrow();
      await expect(store.deletePrefix(prefix)).rejects.toThrow();
    });
  });
}
