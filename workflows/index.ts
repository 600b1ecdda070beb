import type { WorkflowDefinition } from "#application/ports/workflow";

/** Every workflow definition, run by the embedded runner or by the Temporal worker. */
export const allWorkflows: WorkflowDefinition<any, any>[] = [];
