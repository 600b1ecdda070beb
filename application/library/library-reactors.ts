import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import type { WorkflowEngine } from "#application/ports/workflow";
import { aggregateIdIn } from "#domain/shared/decider";
import { readEvent } from "#domain/shared/event-schemas";
import { documentAggregate } from "#domain/library/document-events";
import { documentStreamId } from "#domain/library/document";
import { ingestionWorkflow, ingestionWorkflowId } from "#workflows/ingestion";

/** Sources ingestion fetches itself, so it starts at registration; uploads start when their bytes arrive. */
const FETCHED_SOURCES: readonly string[] = ["document_url", "website_url", "youtube_link"];

/**
 * Starts ingestion once a document has something to ingest: its file arrived
 * (`DocumentFileReceived`) or it is a link (`DocumentRegistered`). The run's
 * id is the document's, so a replayed event starts nothing twice.
 */
@injectable()
export class IngestionStarter implements Reactor {
  readonly name = "library.start-ingestion";
  readonly eventTypes = ["DocumentRegistered", "DocumentFileReceived"];

  constructor(@inject(TOKENS.WorkflowEngine) private readonly workflows: WorkflowEngine) {}

  async react(recorded: RecordedEvent): Promise<void> {
    const event = readEvent(documentAggregate.events, recorded);
    if (event.type === "DocumentRegistered" && !FETCHED_SOURCES.includes(event.data.source)) return;
    const documentId = aggregateIdIn(recorded.streamId, documentStreamId);
    await this.workflows.start(ingestionWorkflow, ingestionWorkflowId(documentId), { documentId });
  }
}
