import type { WorkflowDefinition } from "#application/ports/workflow";
import { accountDeletionWorkflow } from "./account-deletion";
import { ingestionWorkflow } from "./ingestion";

/** Every workflow definition, run by the embedded runner or by the Temporal worker. */
export const allWorkflows: WorkflowDefinition<any, any>[] = [ingestionWorkflow, accountDeletionWorkflow];
