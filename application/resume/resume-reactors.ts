import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import type { Clock } from "#application/ports/clock";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { DomainError } from "#domain/shared/domain-error";
import { aggregateIdIn } from "#domain/shared/decider";
import { readEvent } from "#domain/shared/event-schemas";
import { resumeStreamId } from "#domain/resume/resume";
import { resumeAggregate } from "#domain/resume/resume-events";
import { workspaceStreamId } from "#domain/workspace/workspace";
import { workspaceAggregate } from "#domain/workspace/workspace-events";
import { ownedWorkspace } from "#projections/workspace/workspaces.queries";
import { ResumeService } from "./resume-service";

/**
 * The workspace launch's `ResumeCreated` ('Creating Resume', spec 000 §2):
 * the resume itself starts here, in its own context. Idempotent by resume id.
 */
@injectable()
export class ResumeStarter implements Reactor {
  readonly name = "resume.start";
  readonly eventTypes = ["ResumeCreated"];

  constructor(@inject(ResumeService) private readonly resumes: ResumeService) {}

  async react(recorded: RecordedEvent): Promise<void> {
    const event = readEvent(workspaceAggregate.events, recorded);
    const ownerId = recorded.metadata.subjectId;
    if (event.type !== "ResumeCreated" || !ownerId) return;
    const workspaceId = aggregateIdIn(recorded.streamId, workspaceStreamId);
    await this.resumes.start({ resumeId: event.data.resumeId, workspaceId, ownerId });
  }
}

/** A launch takes seconds; a workspace still not there after this was deleted or failed for good. */
const GIVE_UP_AFTER_MS = 10 * 60_000;

/**
 * Drafts the first version once the resume started. The workspace's read
 * model must show its documents: it does once the launch ended (the launch
 * activates the workspace after recording the resume), so until then the
 * reaction fails and the runner retries it with backoff.
 */
@injectable()
export class ResumeDrafter implements Reactor {
  readonly name = "resume.draft";
  readonly eventTypes = ["ResumeStarted"];

  constructor(
    @inject(ResumeService) private readonly resumes: ResumeService,
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async react(recorded: RecordedEvent): Promise<void> {
    const event = readEvent(resumeAggregate.events, recorded);
    if (event.type !== "ResumeStarted") return;
    const { workspaceId, ownerId } = event.data;
    const workspace = await ownedWorkspace(this.store, ownerId, workspaceId);
    if (!workspace || workspace.status === "CREATING") {
      // Still launching (retried with backoff) — unless so long after the start that it never will: then it is passed over, not retried forever.
      const waitedMs = this.clock.now().getTime() - new Date(event.data.startedAt).getTime();
      if (waitedMs > GIVE_UP_AFTER_MS) throw new DomainError("WORKSPACE_NOT_EXIST", `Workspace ${workspaceId} never finished launching; its resume is not drafted`);
      throw new Error(`Workspace ${workspaceId} is still launching; the resume is drafted after it`);
    }
    await this.resumes.draft(aggregateIdIn(recorded.streamId, resumeStreamId));
  }
}
