/**
 * Child process of infrastructure/processes/dying-with-parent.test.ts, which SIGKILLs it: a
 * background process converting a legacy Office file with the `soffice` given as argument.
 */
import { tmpdir } from "node:os";
import { convertLegacyOffice } from "#infrastructure/extraction/office";

await convertLegacyOffice(Buffer.from("a DOC file"), "doc", process.argv[2]!, tmpdir(), 600_000).catch(() => undefined);
