/**
 * Reading ZIP-based documents (DOCX, PPTX, XLSX) without trusting them: the central directory is
 * checked before anything is inflated, and inflating stops as soon as the real output passes the
 * limit, because a zip bomb can declare small sizes and still expand to gigabytes.
 */
import { Inflate } from "fflate";
import { ExtractionError } from "#application/ports/text-extraction";

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export interface ArchiveLimits {
  maxUncompressedBytes: number;
  maxEntries: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxUncompressedBytes: 200 * 1024 * 1024,
  maxEntries: 10_000,
};

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const ZIP64_MARKER = 0xffffffff;

export const isZip = (bytes: Buffer): boolean =>
  bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL_SIGNATURE;

const tooLarge = () =>
  new ExtractionError(
    "ARCHIVE_TOO_LARGE",
    "This file expands to far more data than a normal document (it may be a zip bomb), so it was not opened.",
  );

const damaged = () =>
  new ExtractionError("DAMAGED_FILE", "This file is damaged or incomplete and could not be opened.");

/** Lists the entries from the central directory; throws DAMAGED_FILE when it cannot be found. */
export function readZipDirectory(bytes: Buffer): ZipEntry[] {
  // The end record sits in the last 22 bytes plus an optional comment of up to 64 KiB.
  const searchFrom = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= searchFrom; i--) {
    if (bytes.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged();
  const count = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== CENTRAL_SIGNATURE) throw damaged();
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    entries.push({
      method: bytes.readUInt16LE(offset + 10),
      compressedSize: bytes.readUInt32LE(offset + 20),
      uncompressedSize: bytes.readUInt32LE(offset + 24),
      name: bytes.toString("utf8", offset + 46, offset + 46 + nameLength),
      localHeaderOffset: bytes.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Refuses archives whose declared sizes or entry count are over the limits. ZIP64 entries
 * (sizes of 4 GiB and more) count as too large: no real office document needs them.
 */
export function assertDeclaredSizesWithinLimits(entries: ZipEntry[], limits: ArchiveLimits): void {
  if (entries.length > limits.maxEntries) throw tooLarge();
  let total = 0;
  for (const entry of entries) {
    if (entry.uncompressedSize === ZIP64_MARKER || entry.compressedSize === ZIP64_MARKER) throw tooLarge();
    total += entry.uncompressedSize;
    if (total > limits.maxUncompressedBytes) throw tooLarge();
  }
}

/**
 * Inflates the entries the filter accepts (all by default), counting the real output of every
 * entry inflated against the limit. Returns the entries by name.
 */
export function readZipEntries(
  bytes: Buffer,
  limits: ArchiveLimits,
  filter: (name: string) => boolean = () => true,
): Map<string, Uint8Array> {
  const entries = readZipDirectory(bytes);
  assertDeclaredSizesWithinLimits(entries, limits);
  const out = new Map<string, Uint8Array>();
  let budget = limits.maxUncompressedBytes;
  for (const entry of entries) {
    if (entry.name.endsWith("/") || !filter(entry.name)) continue;
    const data = inflateEntry(bytes, entry, budget);
    budget -= data.length;
    out.set(entry.name, data);
  }
  return out;
}

/** Inflates every entry once, only to prove the real total is within the limit. */
export function assertRealSizeWithinLimits(bytes: Buffer, limits: ArchiveLimits): void {
  const entries = readZipDirectory(bytes);
  assertDeclaredSizesWithinLimits(entries, limits);
  let budget = limits.maxUncompressedBytes;
  for (const entry of entries) {
    if (entry.name.endsWith("/")) continue;
    budget -= inflateEntry(bytes, entry, budget).length;
  }
}

function inflateEntry(bytes: Buffer, entry: ZipEntry, budget: number): Uint8Array {
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_SIGNATURE) throw damaged();
  const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw damaged();
  const compressed = bytes.subarray(start, end);
  if (entry.method === 0) {
    if (compressed.length > budget) throw tooLarge();
    return compressed;
  }
  if (entry.method !== 8) {
    throw new ExtractionError("DAMAGED_FILE", "This file uses a compression method that is not supported.");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let failed = false;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > budget) {
      failed = true;
      return;
    }
    chunks.push(chunk);
  });
  // Feeding small slices lets the size check stop a bomb after a few megabytes, not at the end.
  const step = 16 * 1024;
  try {
    for (let i = 0; i < compressed.length && !failed; i += step) {
      const last = i + step >= compressed.length;
      inflater.push(compressed.subarray(i, i + step), last);
    }
  } catch {
    throw damaged();
  }
  if (failed) throw tooLarge();
  return Buffer.concat(chunks);
}
