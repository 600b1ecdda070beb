/**
 * Child process of infrastructure/processes/dying-with-parent.test.ts, which SIGKILLs it: a
 * background process reading a scanned PDF (OCR in an extraction process) while a tool it started
 * itself runs.
 */
import { spawn } from "node:child_process";
import { PDFDocument } from "pdf-lib";
import { renderTextPng } from "#infrastructure/extraction/test-support/documents";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";
import { dyingWithParent } from "#infrastructure/processes/dying-with-parent";

spawn(...dyingWithParent("sleep", ["600"]), { stdio: "ignore" });

const png = await renderTextPng(["The harbour gauge stood dry", "at the lowest ebb of the year."]);
const doc = await PDFDocument.create();
const image = await doc.embedPng(png);
// Pages enough to keep the OCR busy well past the moment the test kills this process.
for (let page = 0; page < 12; page++) doc.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
const bytes = Buffer.from(await doc.save());
await new DefaultTextExtractor().extract({ bytes, kind: "pdf", ocr: true });
