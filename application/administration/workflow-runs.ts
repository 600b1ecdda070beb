import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine, WorkflowRunInfo, WorkflowStatus } from "#application/ports/workflow";
import { DomainError } from "#domain/shared/domain-error";

/**
 * The operators' view of the workflow runs (ARCHITECTURE §5): ingestion,
 * launch, deletion, impersonation expiry, embedding, upload deadlines, jobs.
 * On the embedded runner only; Temporal has its own UI (decision 106).
 */
@injectable()
export class WorkflowRuns {
  constructor(@inject(TOKENS.WorkflowEngine) private readonly workflows: WorkflowEngine) {}

  list(status?: WorkflowStatus, limit = 200): Promise<WorkflowRunInfo[]> {
    return this.workflows.list({ status, limit });
  }

  /** Runs a failed run again from its failed step. */
  async retry(workflowId: string): Promise<void> {
    const retried = this.workflows.retry ? await this.workflows.retry(workflowId) : false;
    if (!retried) throw new DomainError("RUN_NOT_FAILED", "Only a failed run can be retried.");
  }
}
