import type { WorkflowDefinition } from "#application/ports/workflow";
import { accountDeletionWorkflow } from "#workflows/account-deletion";
import { impersonationExpiryWorkflow } from "#workflows/impersonation-expiry";
import { ingestionWorkflow } from "#workflows/ingestion";
import { uploadDeadlineWorkflow } from "#workflows/upload-deadline";
import { workspaceEmbeddingWorkflow } from "#workflows/workspace-embedding";
import { workspaceLaunchWorkflow } from "#workflows/workspace-launch";

/**
 * The definitions Temporal's sandbox bundle holds. The context modules cannot
 * be imported here (they bring services that use Node), so this is the one
 * list kept beside them; infrastructure/modules/modules.test.ts fails when it
 * differs from the modules' workflows (docs/decisions/050).
 */
export const sandboxWorkflows: WorkflowDefinition<any, any>[] = [ingestionWorkflow, workspaceLaunchWorkflow, workspaceEmbeddingWorkflow, accountDeletionWorkflow, uploadDeadlineWorkflow, impersonationExpiryWorkflow];
