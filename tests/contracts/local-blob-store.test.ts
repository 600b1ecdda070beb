import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalBlobStore } from "#infrastructure/embedded/local-blob-store";
import { blobStoreContract } from "./blob-store.contract";

blobStoreContract("LocalBlobStore", async () => {
  const root = await mkdtemp(join(tmpdir(), "blobs-"));
  return { store: new LocalBlobStore(root), cleanup: () => rm(root, { recursive: true, force: true }) };
});

describe("LocalBlobStore specifics", () => {
  it("keeps blobs as files with a sidecar under the root, leaves no temp files, prunes empty folders", async () => {
    const parent = await mkdtemp(join(tmpdir(), "blobs-"));
    const root = join(parent, "blobs");
    try {
      const store = new LocalBlobStore(root);
      await store.put("a/b/c.txt", Buffer.from("hi"), { contentType: "text/plain", metadata: { k: "v" } });
      expect((await readdir(join(root, "a/b"))).sort()).toEqual(["c.txt", "c.txt.meta.json"]);
      await store.delete("a/b/c.txt");
      expect(await readdir(root)).toEqual([]);
      // Nothing was written outside the root.
      expect(await readdir(parent)).toEqual(["blobs"]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it("does not leave a temp file when a stream body fails", async () => {
    const root = await mkdtemp(join(tmpdir(), "blobs-"));
    try {
      const store = new LocalBlobStore(root);
      const { Readable } = await import("node:stream");
      const failing = new Readable({
        read() {
          this.destroy(new Error("client went away"));
        },
      });
      await expect(store.put("up/load.bin", failing, { contentType: "application/octet-stream" })).rejects.toThrow(
        "client went away",
      );
      expect(await store.head("up/load.bin")).toBeNull();
      expect(await readdir(join(root, "up"))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("refuses keys that would collide with its own sidecar and temp files", async () => {
    const root = await mkdtemp(join(tmpdir(), "blobs-"));
    try {
      const store = new LocalBlobStore(root);
      await expect(store.put("a.txt.meta.json", Buffer.from("x"), { contentType: "text/plain" })).rejects.toThrow();
      await expect(store.put("dir/.tmp-123", Buffer.from("x"), { contentType: "text/plain" })).rejects.toThrow();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
