import { readFileSync, writeFileSync } from "node:fs";
import { it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { SearchIndex } from "#application/ports/search-index";
import type { WorkflowEngine } from "#application/ports/workflow";
import { LibraryService } from "#application/library/library-service";
import { LibraryQueries } from "#application/library/library-queries";
import { retrievePassages, termStatistics } from "#application/conversation/retrieval";
import { createTestRuntime } from "../support/test-runtime";
import { settle } from "../support/library-fixtures";
import { EVAL_DOCUMENTS, EVAL_QUESTIONS } from "./questions";
it("dump", async () => {
  const env = await createTestRuntime();
  const ctx = { requestId: "e", clientAddress: "127.0.0.1", actorId: "o" };
  const ids: Record<string, string> = {};
  const names: Record<string, string> = {};
  const pages: Record<string, string[]> = {};
  for (const d of EVAL_DOCUMENTS) {
    env.clock.advance(32 * 86400000);
    const lib = env.runtime.container.get(LibraryService);
    const bytes = readFileSync(d.path.replace("../shared", "/work/shared"));
    const r = await lib.registerUpload("o", { document_name: d.name, document_size: bytes.length, page_count: 1, ocr: String(d.ocr ?? false) }, ctx);
    await lib.receiveUpload(r.document_id, new URL(r.url, "http://x").searchParams.get("token")!, bytes, "application/pdf", ctx);
    await env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`ingestion-${r.document_id}`, 120000);
    ids[d.key] = r.document_id; names[r.document_id] = d.name;
  }
  await settle(env.runtime);
  for (const id of Object.values(ids)) pages[id] = (await env.runtime.container.get(LibraryQueries).pages("o", id)).map((p) => p.text);
  const index = env.runtime.get<SearchIndex>(TOKENS.SearchIndex);
  const out = [];
  for (const q of EVAL_QUESTIONS) {
    const passages = await retrievePassages({ index, question: q.question, documentIds: Object.values(ids), limit: Number(process.env.LIMIT ?? 8), documentName: (id) => names[id] });
    out.push({ question: q.question, passages, termStatistics: await termStatistics({ index, question: q.question, documentIds: Object.values(ids) }) });
  }
  writeFileSync(process.env.OUT ?? "/tmp/answers/passages.json", JSON.stringify({ ids, pages, out }));
  await env.cleanup();
}, 300000);
