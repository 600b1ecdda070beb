import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { LibraryService } from "#application/library/library-service";
import type { WorkflowEngine } from "#application/ports/workflow";
import { TOKENS } from "#application/tokens";
import { processIdentity } from "#infrastructure/processes/extraction-locks";
import { kill, startScript, until } from "../support/child-process";
import { createTestRuntime } from "../support/test-runtime";

const killedWhileExtracting = new URL("../../infrastructure/processes/test-support/killed-while-extracting.ts", import.meta.url).pathname;

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let orphan = 0;
afterEach(async () => {
  if (orphan && processIdentity(orphan)) process.kill(orphan, "SIGKILL");
  await env?.cleanup();
});

describe("a document's extraction", () => {
  it("does not run beside what a killed background process left extracting it: that ends first", async () => {
    env = await createTestRuntime({ builtInEmbeddings: false });
    const library = env.runtime.container.get(LibraryService);
    const ownerId = randomUUID();
    const ctx = { requestId: "r", clientAddress: "127.0.0.1", actorId: ownerId };
    const text = Buffer.from("The tide gauge at the harbour mouth read two metres at noon.");
    const registered = await library.registerUpload(ownerId, { document_name: "gauge.txt", document_type: "text/plain", document_size: text.length, page_count: 1 }, ctx);

    // The predecessor took the document's lock and started a tool, then was killed; the tool runs on.
    const predecessor = startScript(killedWhileExtracting, [env.dataDir, registered.document_id]);
    await until("the predecessor extracts", () => /extracting with \d+/.test(predecessor.output()), predecessor, 60_000);
    orphan = Number(/extracting with (\d+)/.exec(predecessor.output())![1]);
    await kill(predecessor);
    expect(processIdentity(orphan)).not.toBeNull();

    await library.receiveUpload(registered.document_id, new URL(registered.url, "http://x").searchParams.get("token")!, text, "text/plain", ctx);
    await env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`ingestion-${registered.document_id}`, 30_000);
    const { state } = await library.loadDocument(registered.document_id);
    expect(state.exists && state.status).toBe("ACTIVE");
    expect(processIdentity(orphan), "the orphan still runs").toBeNull();
  }, 90_000);
});
