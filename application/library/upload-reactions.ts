import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import type { ActivitiesFor, WorkflowEngine } from "#application/ports/workflow";
import type { AppSettings } from "#application/shared/app-settings";
import { readEvent } from "#domain/shared/event-schemas";
import { documentAggregate } from "#domain/library/document-events";
import { type UploadDeadlineActivityName, uploadDeadlineWorkflow, uploadDeadlineWorkflowId } from "#workflows/upload-deadline";
import { LibraryService } from "./library-service";
import { PageAllowance } from "./page-allowance";

const documentIdOf = (event: RecordedEvent) => event.streamId.slice("document-".length);

/** Metadata of what a reaction appends: caused by the event, in its correlation. */
const reactionMetadata = (event: RecordedEvent, ownerId: string) => ({
  correlationId: event.metadata.correlationId,
  causationId: event.eventId,
  actorId: ownerId,
  subjectId: ownerId,
});

/**
 * What follows an upload's events (docs/decisions/091): a registered file
 * upload gets its deadline; a document that fails, or is deleted before it was
 * ready, gives back the pages it held on the owner's allowance.
 */
@injectable()
export class UploadReactions {
  constructor(
    @inject(LibraryService) private readonly library: LibraryService,
    @inject(PageAllowance) private readonly pageAllowance: PageAllowance,
    @inject(TOKENS.WorkflowEngine) private readonly workflows: WorkflowEngine,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  reactors(): Reactor[] {
    return [
      { name: "library.upload-deadline", eventTypes: ["DocumentRegistered"], react: (event) => this.startDeadline(event) },
      { name: "library.page-release", eventTypes: ["DocumentFailed", "DocumentDeleted"], react: (event) => this.releasePages(event) },
    ];
  }

  activities(): ActivitiesFor<UploadDeadlineActivityName> {
    return {
      "library.abandonUpload": (input) => this.library.expireUpload((input as { documentId: string }).documentId),
    };
  }

  /** Only files and recordings wait for a PUT; links are fetched by ingestion itself. */
  private async startDeadline(recorded: RecordedEvent): Promise<void> {
    const event = readEvent(documentAggregate.events, recorded);
    if (event.type !== "DocumentRegistered" || (event.data.source !== "file" && event.data.source !== "audio")) return;
    const deadline = new Date(new Date(event.data.registeredAt).getTime() + this.settings.uploadDeadlineMs);
    const documentId = documentIdOf(recorded);
    await this.workflows.start(uploadDeadlineWorkflow, uploadDeadlineWorkflowId(documentId), { documentId, deadline: deadline.toISOString() });
  }

  /** A ready document's pages count for good; any other ending frees them. */
  private async releasePages(recorded: RecordedEvent): Promise<void> {
    const documentId = documentIdOf(recorded);
    const { state } = await this.library.loadDocument(documentId);
    if (!state.exists || state.activated) return;
    await this.pageAllowance.releasePages(state.ownerId, new Date(state.registeredAt), documentId, reactionMetadata(recorded, state.ownerId), this.clock.now());
  }
}
