import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import type { WorkflowEngine } from "#application/ports/workflow";
import { aggregateIdIn } from "#domain/shared/decider";
import { readEvent } from "#domain/shared/event-schemas";
import { keysetStreamId } from "#domain/identity/keyset";
import { workspaceStreamId } from "#domain/workspace/workspace";
import { workspaceAggregate } from "#domain/workspace/workspace-events";
import { workspaceEmbeddingWorkflow, workspaceEmbeddingWorkflowId } from "#workflows/workspace-embedding";
import { workspaceLaunchWorkflow, workspaceLaunchWorkflowId } from "#workflows/workspace-launch";
import { WorkspaceService } from "./workspace-service";

/**
 * A created workspace is launched; a requested embedding index is built. Run
 * ids come from the event (workspace id, index revision), so a replayed
 * event starts nothing twice.
 */
@injectable()
export class WorkspaceWorkflowStarter implements Reactor {
  readonly name = "workspace.start-workflows";
  readonly eventTypes = ["WorkspaceCreated", "EmbeddingIndexRequested"];

  constructor(@inject(TOKENS.WorkflowEngine) private readonly workflows: WorkflowEngine) {}

  async react(recorded: RecordedEvent): Promise<void> {
    const event = readEvent(workspaceAggregate.events, recorded);
    const workspaceId = aggregateIdIn(recorded.streamId, workspaceStreamId);
    if (event.type === "WorkspaceCreated") {
      await this.workflows.start(workspaceLaunchWorkflow, workspaceLaunchWorkflowId(workspaceId), { workspaceId });
    } else if (event.type === "EmbeddingIndexRequested") {
      const { revision } = event.data;
      await this.workflows.start(workspaceEmbeddingWorkflow, workspaceEmbeddingWorkflowId(workspaceId, revision), { workspaceId, revision });
    }
  }
}

/**
 * Identity's `KeysetDeleted`: the owner's workspaces whose chat preference
 * used the keyset fall back to the built-in keyset (spec 001 §4). A reaction
 * in the workspace context, so identity never calls into workspaces.
 */
@injectable()
export class KeysetDeletedReaction implements Reactor {
  readonly name = "workspace.keyset-deleted";
  readonly eventTypes = ["KeysetDeleted"];

  constructor(@inject(WorkspaceService) private readonly workspaces: WorkspaceService) {}

  async react(event: RecordedEvent): Promise<void> {
    const ownerId = event.metadata.subjectId;
    if (!ownerId) return;
    await this.workspaces.fallBackFromKeyset(ownerId, aggregateIdIn(event.streamId, keysetStreamId), {
      correlationId: event.metadata.correlationId,
      causationId: event.eventId,
      actorId: event.metadata.actorId,
      subjectId: ownerId,
    });
  }
}
