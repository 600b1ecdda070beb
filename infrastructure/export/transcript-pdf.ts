import type { PDFFont } from "pdf-lib";
import type { Transcript } from "#application/conversation/conversation-transcript";

const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const WIDTH = PAGE[0] - 2 * MARGIN;

/** The transcript as an A4 PDF. Standard fonts cover Latin-1: other characters become '?' rather than failing the export. */
export async function transcriptToPdf(transcript: Transcript): Promise<Buffer> {
  // pdf-lib is imported on the first export, not with the server bundle at every start (decision 254).
  const { PDFDocument, StandardFonts, rgb } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  doc.setTitle(latin1(transcript.title));
  doc.setProducer("DocuChat");
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;

  const write = (text: string, font: PDFFont, size: number, color = rgb(0.1, 0.1, 0.12)) => {
    for (const line of wrap(latin1(text), font, size)) {
      if (y < MARGIN + size) {
        page = doc.addPage(PAGE);
        y = PAGE[1] - MARGIN;
      }
      page.drawText(line, { x: MARGIN, y: y - size, size, font, color });
      y -= size * 1.45;
    }
  };

  write(transcript.title, bold, 18);
  y -= 8;
  for (const entry of transcript.entries) {
    write(`${entry.speaker} · ${entry.time}`, bold, 10, rgb(0.3, 0.32, 0.4));
    for (const paragraph of entry.text.split(/\n+/)) write(paragraph, regular, 11);
    if (entry.citations.length > 0) write(`Sources: ${entry.citations.join("; ")}`, regular, 9, rgb(0.25, 0.3, 0.6));
    y -= 10;
  }
  return Buffer.from(await doc.save());
}

function wrap(text: string, font: PDFFont, size: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= WIDTH) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (font.widthOfTextAtSize(line, size) > WIDTH && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > WIDTH) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [""];
}

const latin1 = (text: string) => text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\u2026/g, "...").replace(/[^\n\x20-\x7e\xa0-\xff]/g, "?");
