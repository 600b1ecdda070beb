/**
 * PDFs read by poppler are parsed and judged in an extraction process, not in a thread of the
 * ingesting process (decision 204): what comes back is what the same extraction gives in the
 * calling thread, a refusal still reaches the workflow as the user's message, the process stays
 * for the next document rather than starting again, and documents at once share two processes.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ExtractionError } from "#application/ports/text-extraction";
import { DocumentReader } from "#infrastructure/extraction/document-reader";
import { makePdf } from "#infrastructure/extraction/test-support/documents";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";

const extractor = new DefaultTextExtractor();

const READINGS = [
  "The harbour gauge stood dry at the lowest ebb of the year",
  "At the pier the high water reached five metres above datum",
  "Gulls gathered on the breakwater before the autumn storm",
];
const report = () => makePdf(READINGS.map((line) => ({ lines: ["Tide Gauge Report", line] })));

/** Extraction processes this test process started (node running extraction-process.mjs). */
const extractionProcesses = () =>
  execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes("extraction-process.mjs"))
    .map((line) => Number(line.trim().split(" ")[0]));

describe("extraction processes", () => {
  it("read a PDF through poppler into exactly what the calling thread reads, in a process that stays for the next document", async () => {
    const bytes = await report();
    const inProcess = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    const here = await new DocumentReader().extract({ bytes, kind: "pdf", ocr: false });
    expect(inProcess.extractor).toBe("poppler");
    expect(inProcess).toEqual(here);
    expect(inProcess.pages[1].text).toContain("the high water reached five metres above datum");

    const started = extractionProcesses();
    expect(started).toHaveLength(1);
    await extractor.extract({ bytes, kind: "pdf", ocr: false });
    expect(extractionProcesses()).toEqual(started);
  });

  it("read four documents at once in at most two processes, each its own text", async () => {
    const bytes = await report();
    const alone = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    const together = await Promise.all(Array.from({ length: 4 }, () => extractor.extract({ bytes, kind: "pdf", ocr: false })));
    for (const result of together) expect(result).toEqual(alone);
    expect(extractionProcesses().length).toBeLessThanOrEqual(2);
  });

  it("refuse a damaged PDF with the message the user reads", async () => {
    const damaged = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(2_000, 0x41)]);
    const refusal = await extractor.extract({ bytes: damaged, kind: "pdf", ocr: false }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ExtractionError);
    expect((refusal as ExtractionError).code).toBe("DAMAGED_FILE");
  });
});
