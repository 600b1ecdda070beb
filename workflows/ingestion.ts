import type { WorkflowDefinition } from "#application/ports/workflow";

/**
 * Ingestion (ARCHITECTURE §5): acquire the source -> extract text with page
 * numbers (and layout boxes) -> OCR where asked -> hold the measured pages on
 * the owner's allowance (over it: failed with the spec's message, before
 * anything is indexed) -> chunk and index -> ready, or failed with a reason
 * the user can read. A document deleted meanwhile fails every step, and
 * `library.fail` then removes what an unfinished step left (its cancellation).
 *
 * Activities answer { ok: false, reason } for a failure the user must see (a
 * bad file, an unreachable link): retrying would not help. Anything thrown is
 * unexpected and retried; if it keeps failing the document fails with a
 * general reason rather than staying "in progress" forever.
 */
export interface IngestionInput {
  documentId: string;
}

export type StepOutcome = { ok: true } | { ok: false; reason: string };

export const INGESTION_STEPS = [
  "library.startContextPreparation",
  "library.acquireSource",
  "library.extractText",
  "library.reservePages",
  "library.indexChunks",
  "library.activate",
] as const;

/** One ingestion run per document. */
export const ingestionWorkflowId = (documentId: string) => `ingestion-${documentId}`;

/** Every activity this workflow calls (the library module provides them). */
export type IngestionActivityName = (typeof INGESTION_STEPS)[number] | "library.fail";

export const ingestionWorkflow: WorkflowDefinition<IngestionInput, StepOutcome> = {
  name: "ingestion",
  async run(ctx, input) {
    try {
      for (const step of INGESTION_STEPS) {
        const outcome = await ctx.activity<StepOutcome>(step, input, { maxAttempts: 4, initialBackoffMs: 1000 });
        if (!outcome.ok) {
          await ctx.activity("library.fail", { ...input, reason: outcome.reason });
          return outcome;
        }
      }
      return { ok: true };
    } catch {
      const reason = "Something went wrong while preparing this document. Please upload it again.";
      await ctx.activity("library.fail", { ...input, reason });
      return { ok: false, reason };
    }
  },
};
