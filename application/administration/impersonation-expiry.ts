import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import type { ActivitiesFor, WorkflowEngine } from "#application/ports/workflow";
import { aggregateIdIn } from "#domain/shared/decider";
import { impersonationStreamId } from "#domain/administration/impersonation";
import {
  type ImpersonationExpiryActivityName,
  type ImpersonationExpiryInput,
  impersonationExpiryWorkflow,
  impersonationExpiryWorkflowId,
} from "#workflows/impersonation-expiry";
import { ImpersonationService } from "./impersonation-service";

/**
 * Starts the 1-hour timer when an impersonation starts, and wakes it when the
 * impersonation ends earlier (the run then finishes without ending anything).
 * The run id is derived from the impersonation, so a replayed event starts nothing twice.
 */
@injectable()
export class ImpersonationExpiryStarter implements Reactor {
  readonly name = "administration.impersonation-expiry";
  readonly eventTypes = ["ImpersonationStarted", "ImpersonationEnded"];

  constructor(@inject(TOKENS.WorkflowEngine) private readonly workflows: WorkflowEngine) {}

  async react(event: RecordedEvent): Promise<void> {
    const impersonationId = aggregateIdIn(event.streamId, impersonationStreamId);
    const id = impersonationExpiryWorkflowId(impersonationId);
    if (event.type === "ImpersonationStarted") {
      await this.workflows.start<ImpersonationExpiryInput>(impersonationExpiryWorkflow, id, { impersonationId, deadline: String(event.data.deadline) });
      return;
    }
    const run = await this.workflows.describe(id);
    if (run?.status === "running" && (event.data as { cause?: string }).cause !== "expiry") await this.workflows.signal(id, "ended", { at: event.recordedAt });
  }
}

/** The expiry workflow's activity. */
@injectable()
export class ImpersonationExpiryActivities {
  constructor(@inject(ImpersonationService) private readonly impersonations: ImpersonationService) {}

  registry(): ActivitiesFor<ImpersonationExpiryActivityName> {
    return {
      "administration.expireImpersonation": (input) => this.impersonations.expire((input as { impersonationId: string }).impersonationId),
    };
  }
}
