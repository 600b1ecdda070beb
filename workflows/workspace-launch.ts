import type { WorkflowDefinition } from "#application/ports/workflow";

/**
 * Workspace launch (ARCHITECTURE §5): attach documents (each with a status
 * and reason) -> create the first conversation -> create the resume for
 * Resume Builder -> mark the workspace ACTIVE, or FAILED with a reason.
 * Each step is idempotent (deterministic ids; the decider ignores a repeat).
 */
export interface WorkspaceLaunchInput {
  workspaceId: string;
}

export type LaunchStepOutcome = { ok: true } | { ok: false; reason: string };

export const LAUNCH_STEPS = [
  "workspace.attachRequestedDocuments",
  "workspace.createFirstConversation",
  "workspace.createResume",
  "workspace.activate",
] as const;

/** Every activity this workflow calls (the workspace module provides them). */
export type LaunchActivityName = (typeof LAUNCH_STEPS)[number] | "workspace.failLaunch";

export const workspaceLaunchWorkflow: WorkflowDefinition<WorkspaceLaunchInput, LaunchStepOutcome> = {
  name: "workspace-launch",
  async run(ctx, input) {
    try {
      for (const step of LAUNCH_STEPS) {
        const outcome = await ctx.activity<LaunchStepOutcome>(step, input, { maxAttempts: 4, initialBackoffMs: 500 });
        if (!outcome.ok) {
          await ctx.activity("workspace.failLaunch", { ...input, reason: outcome.reason });
          return outcome;
        }
      }
      return { ok: true };
    } catch {
      const reason = "Failed to launch workspace";
      await ctx.activity("workspace.failLaunch", { ...input, reason });
      return { ok: false, reason };
    }
  },
};

export const workspaceLaunchWorkflowId = (workspaceId: string) => `workspace-launch-${workspaceId}`;
