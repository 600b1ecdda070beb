import type { WorkflowDefinition } from "#application/ports/workflow";

/**
 * Embedding index of a workspace (ARCHITECTURE §5, §6): when the workspace's
 * embedding model is chosen, or documents join a workspace that has one, every
 * document's chunks are embedded with that model into the model's own vector
 * space. One activity per document (progress after each; a document already
 * embedded in that space is skipped, so re-running is cheap), then complete.
 * A newer revision supersedes this run: its activities then answer `stale`.
 */
export interface WorkspaceEmbeddingInput {
  workspaceId: string;
  revision: number;
}

export type EmbeddingPlan = { stale: true } | { stale: false; documentIds: string[] };
export type EmbeddingStepOutcome = { stale: boolean };

/** Every activity this workflow calls (the workspace module provides them). */
export type EmbeddingActivityName = "workspace.embedding.plan" | "workspace.embedding.embedDocument" | "workspace.embedding.complete";

export const workspaceEmbeddingWorkflow: WorkflowDefinition<WorkspaceEmbeddingInput, { stale: boolean }> = {
  name: "workspace-embedding",
  async run(ctx, input) {
    const plan = await ctx.activity<EmbeddingPlan>("workspace.embedding.plan", input);
    if (plan.stale) return { stale: true };
    const total = plan.documentIds.length;
    for (const [i, documentId] of plan.documentIds.entries()) {
      // Provider hiccups (rate limits, timeouts) are retried; a document that keeps failing is recorded and skipped.
      const step = await ctx.activity<EmbeddingStepOutcome>(
        "workspace.embedding.embedDocument",
        { ...input, documentId, done: i + 1, total },
        { maxAttempts: 4, initialBackoffMs: 2_000, maxBackoffMs: 30_000 },
      );
      if (step.stale) return { stale: true };
    }
    await ctx.activity("workspace.embedding.complete", input);
    return { stale: false };
  },
};

export const workspaceEmbeddingWorkflowId = (workspaceId: string, revision: number) => `workspace-embedding-${workspaceId}-${revision}`;
