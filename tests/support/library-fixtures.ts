import { randomUUID } from "node:crypto";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { LibraryService } from "#application/library/library-service";
import type { AppRuntime } from "#infrastructure/container";

/** Uploads a text document through the real upload path and waits until ingestion has finished. */
export async function uploadTextDocument(runtime: AppRuntime, ownerId: string, name: string, text: string): Promise<string> {
  const library = runtime.container.get(LibraryService);
  // A random request id, as in the app: the file name is personal data and must not become a correlation id.
  const ctx: RequestContext = { requestId: `upload-${randomUUID()}`, clientAddress: "127.0.0.1", actorId: ownerId };
  const body = Buffer.from(text);
  const registered = await library.registerUpload(ownerId, { document_name: name, document_type: "text/plain", document_size: body.length, page_count: 1 }, ctx);
  const token = new URL(registered.url, "http://x").searchParams.get("token")!;
  await library.receiveUpload(registered.document_id, token, body, "text/plain", ctx);
  await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`ingestion-${registered.document_id}`, 30_000);
  await settle(runtime);
  return registered.document_id;
}

/** Waits until every projector has caught up with the log. */
export async function settle(runtime: AppRuntime): Promise<void> {
  const head = await runtime.get<EventStore>(TOKENS.EventStore).headPosition();
  await runtime.get<ProjectionWaiter>(TOKENS.ProjectionWaiter).waitForPosition(head, 10_000);
}
