import { PDFDocument } from "pdf-lib";

/** The p-th percentile of ascending `sorted` (nearest rank below); NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The first `pages` pages of a real book, as one PDF. */
export async function firstPages(bytes: Buffer, pages: number): Promise<Buffer> {
  const source = await PDFDocument.load(bytes);
  const doc = await PDFDocument.create();
  const copied = await doc.copyPages(source, Array.from({ length: Math.min(pages, source.getPageCount()) }, (_, i) => i));
  for (const page of copied) doc.addPage(page);
  return Buffer.from(await doc.save());
}
