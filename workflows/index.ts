import type { WorkflowDefinition } from "#application/ports/workflow";
import { accountDeletionWorkflow } from "./account-deletion";
import { ingestionWorkflow } from "./ingestion";
import { workspaceEmbeddingWorkflow } from "./workspace-embedding";
import { workspaceLaunchWorkflow } from "./workspace-launch";

/** Every workflow definition, run by the embedded runner or by the Temporal worker. */
export const allWorkflows: WorkflowDefinition<any, any>[] = [ingestionWorkflow, workspaceLaunchWorkflow, workspaceEmbeddingWorkflow, accountDeletionWorkflow];
