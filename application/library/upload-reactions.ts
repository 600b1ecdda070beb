import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import type { ActivitiesFor, WorkflowEngine } from "#application/ports/workflow";
import type { AppSettings } from "#application/shared/app-settings";
import { aggregateIdIn } from "#domain/shared/decider";
import { readEvent } from "#domain/shared/event-schemas";
import { documentStreamId } from "#domain/library/document";
import { documentAggregate } from "#domain/library/document-events";
import { type UploadDeadlineActivityName, uploadDeadlineWorkflow, uploadDeadlineWorkflowId } from "#workflows/upload-deadline";
import { LibraryService } from "./library-service";
import type { UsageMeter } from "#application/shared/allowance-policy";

/** What follows an upload's events (docs/decisions/091). */

const documentIdOf = (event: RecordedEvent) => aggregateIdIn(event.streamId, documentStreamId);

/** Only files and recordings wait for a PUT; links are fetched by ingestion itself. */
const UPLOADED_SOURCES: readonly string[] = ["file", "audio"];

/** A registered upload gets its deadline: one run per document, so a replayed event starts nothing twice. */
@injectable()
export class UploadDeadlineStarter implements Reactor {
  readonly name = "library.upload-deadline";
  readonly eventTypes = ["DocumentRegistered"];

  constructor(
    @inject(TOKENS.WorkflowEngine) private readonly workflows: WorkflowEngine,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
  ) {}

  async react(recorded: RecordedEvent): Promise<void> {
    const event = readEvent(documentAggregate.events, recorded);
    if (event.type !== "DocumentRegistered" || !UPLOADED_SOURCES.includes(event.data.source)) return;
    const deadline = new Date(new Date(event.data.registeredAt).getTime() + this.settings.uploadDeadlineMs);
    const documentId = documentIdOf(recorded);
    await this.workflows.start(uploadDeadlineWorkflow, uploadDeadlineWorkflowId(documentId), { documentId, deadline: deadline.toISOString() });
  }
}

/** A document that fails, or is deleted before it was ready, gives back the pages it held; a ready one keeps them. */
@injectable()
export class PageRelease implements Reactor {
  readonly name = "library.page-release";
  readonly eventTypes = ["DocumentFailed", "DocumentDeleted"];

  constructor(
    @inject(LibraryService) private readonly library: LibraryService,
    @inject(TOKENS.UsageMeter) private readonly usage: UsageMeter,
  ) {}

  async react(recorded: RecordedEvent): Promise<void> {
    const documentId = documentIdOf(recorded);
    const { state } = await this.library.loadDocument(documentId);
    if (!state.exists || state.activated) return;
    // Caused by the event, in its correlation.
    const metadata = { correlationId: recorded.metadata.correlationId, causationId: recorded.eventId, actorId: state.ownerId, subjectId: state.ownerId };
    const month = new Date(state.registeredAt);
    await this.usage.release(state.ownerId, "pages", documentId, month, metadata);
    await this.usage.release(state.ownerId, "uploads", documentId, month, metadata);
  }
}

/** The upload deadline workflow's one activity. */
export function uploadDeadlineActivities(library: LibraryService): ActivitiesFor<UploadDeadlineActivityName> {
  return { "library.abandonUpload": (input) => library.expireUpload((input as { documentId: string }).documentId) };
}
