import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { BlobInfo, BlobStore, ByteRange, StoredBlob } from "#application/ports/blob-store";

const META_SUFFIX = ".meta.json";
const TEMP_PREFIX = ".tmp-";
const MAX_KEY_LENGTH = 1024;

interface Sidecar {
  contentType: string;
  metadata: Record<string, string>;
}

export class InvalidBlobKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`Invalid blob key ${JSON.stringify(key)}: ${reason}`);
    this.name = "InvalidBlobKeyError";
  }
}

/**
 * Blob storage as plain files under one root (the embedded default, ARCHITECTURE §4).
 * `a/b.pdf` is `<root>/a/b.pdf` with contentType and metadata in `<root>/a/b.pdf.meta.json`.
 * Writes go to a temp file in the same directory and are renamed into place, so a
 * reader sees the old blob or the new one, never half of one. A key cannot also be
 * a "folder" of other keys (`a` and `a/b`), which S3 would allow; the app's
 * generated keys never need that.
 */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(
    key: string,
    body: Buffer | Readable,
    options: { contentType: string; metadata?: Record<string, string> },
  ): Promise<BlobInfo> {
    const file = this.fileFor(key);
    const sidecar: Sidecar = { contentType: options.contentType, metadata: { ...(options.metadata ?? {}) } };
    await mkdir(dirname(file), { recursive: true });
    const tempData = join(dirname(file), `${TEMP_PREFIX}${randomUUID()}`);
    const tempMeta = `${tempData}${META_SUFFIX}`;
    try {
      if (Buffer.isBuffer(body)) await writeFile(tempData, body);
      else await pipeline(body, createWriteStream(tempData));
      await writeFile(tempMeta, JSON.stringify(sidecar));
      // Data first: a reader between the two renames sees the new bytes with the old sidecar, never no sidecar.
      await rename(tempData, file);
      await rename(tempMeta, `${file}${META_SUFFIX}`);
    } catch (error) {
      await rm(tempData, { force: true });
      await rm(tempMeta, { force: true });
      throw error;
    }
    const { size } = await stat(file);
    return { key, size, ...sidecar };
  }

  async get(key: string, range?: ByteRange): Promise<StoredBlob | null> {
    const file = this.fileFor(key);
    // Open before reading the sidecar: the open handle keeps these bytes even if the blob is replaced or deleted meanwhile.
    const handle = await open(file, "r").catch(ifMissing(null));
    if (!handle) return null;
    try {
      const sidecar = await this.readSidecar(file);
      if (!sidecar) {
        await handle.close();
        return null;
      }
      const { size } = await handle.stat();
      return { key, size, ...sidecar, body: handle.createReadStream(range ? { start: range.start, end: range.end } : {}) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    const file = this.fileFor(key);
    const [stats, sidecar] = await Promise.all([stat(file).catch(ifMissing(null)), this.readSidecar(file)]);
    if (!stats?.isFile() || !sidecar) return null;
    return { key, size: stats.size, ...sidecar };
  }

  async delete(key: string): Promise<void> {
    const file = this.fileFor(key);
    // Sidecar last-in, first-out: without it the blob no longer exists for readers.
    await unlink(`${file}${META_SUFFIX}`).catch(ifMissing(undefined));
    await unlink(file).catch(ifMissing(undefined));
    await this.pruneEmptyDirectories(dirname(file));
  }

  async deletePrefix(prefix: string): Promise<number> {
    // An empty prefix would wipe every blob; that is never what a caller means.
    if (prefix === "") throw new InvalidBlobKeyError(prefix, "deletePrefix needs a non-empty prefix");
    const blobs = await this.list(prefix);
    for (const blob of blobs) await this.delete(blob.key);
    return blobs.length;
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    if (prefix !== "") validateKey(prefix, { allowTrailingSlash: true, allowPartialSegment: true });
    // Only the directory named by the prefix's complete segments can hold matches.
    const slash = prefix.lastIndexOf("/");
    const startDir = slash >= 0 ? join(this.root, ...prefix.slice(0, slash).split("/")) : this.root;
    const keys = (await this.walk(startDir)).filter((k) => k.startsWith(prefix)).sort();
    const infos = await Promise.all(keys.map((k) => this.head(k)));
    return infos.filter((info): info is BlobInfo => info !== null);
  }

  private fileFor(key: string): string {
    validateKey(key);
    return join(this.root, ...key.split("/"));
  }

  private async readSidecar(file: string): Promise<Sidecar | null> {
    const text = await readFile(`${file}${META_SUFFIX}`, "utf8").catch(ifMissing(null));
    return text === null ? null : (JSON.parse(text) as Sidecar);
  }

  /** Keys of every blob under dir (data files only: no sidecars, no temp files). */
  private async walk(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(ifMissing([]));
    const keys: string[] = [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) keys.push(...(await this.walk(path)));
      else if (entry.isFile() && !entry.name.endsWith(META_SUFFIX) && !entry.name.startsWith(TEMP_PREFIX)) {
        keys.push(relative(this.root, path).split(sep).join("/"));
      }
    }
    return keys;
  }

  /** Removes directories left empty by a delete, up to (not including) the root. */
  private async pruneEmptyDirectories(dir: string): Promise<void> {
    let current = dir;
    while (current !== this.root && current.startsWith(this.root)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (or already gone): stop
      }
      current = dirname(current);
    }
  }
}

/**
 * Keys are generated by the application, so anything that could escape the root
 * or mean different files on different systems is refused rather than cleaned up.
 */
export function validateKey(
  key: string,
  options: { allowTrailingSlash?: boolean; allowPartialSegment?: boolean } = {},
): void {
  const fail = (reason: string) => {
    throw new InvalidBlobKeyError(key, reason);
  };
  if (typeof key !== "string" || key.length === 0) fail("empty");
  if (key.length > MAX_KEY_LENGTH) fail(`longer than ${MAX_KEY_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(key)) fail("control character");
  if (key.includes("\\")) fail("backslash");
  if (key.startsWith("/") || /^[a-zA-Z]:/.test(key)) fail("absolute path");
  const segments = key.split("/");
  if (options.allowTrailingSlash && segments.length > 1 && segments[segments.length - 1] === "") segments.pop();
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (segment === "") fail("empty path segment");
    if (segment === "." || segment === "..") fail(`"${segment}" segment`);
    if (segment.startsWith(TEMP_PREFIX) && !(last && options.allowPartialSegment)) fail(`segment starts with ${TEMP_PREFIX}`);
  }
  if (key.endsWith(META_SUFFIX) && !options.allowPartialSegment) fail(`ends with ${META_SUFFIX}`);
}

function ifMissing<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") {
      return fallback;
    }
    throw error;
  };
}
