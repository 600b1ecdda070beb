import type { WorkflowDefinition } from "#application/ports/workflow";

/**
 * Upload deadline (ARCHITECTURE §5): a registered upload waits for its file
 * until the deadline; then the document is failed with 'The upload did not
 * complete' unless the file came (the activity reads the document's stream and
 * does nothing for a received, failed or deleted one). Failing releases what
 * the document held of the page allowance (a reaction to DocumentFailed).
 *
 * Started by the library's reaction to DocumentRegistered, one run per
 * document (`upload-deadline-<documentId>`); no signal is needed, because the
 * document's stream is the answer to "did the file come?" (docs/decisions/091).
 */
export interface UploadDeadlineInput {
  documentId: string;
  /** ISO-8601: registration time plus the configured deadline. */
  deadline: string;
}

export type UploadDeadlineOutcome = { abandoned: boolean };

/** Every activity this workflow calls (the library module provides it). */
export type UploadDeadlineActivityName = "library.abandonUpload";

export const uploadDeadlineWorkflowId = (documentId: string) => `upload-deadline-${documentId}`;

export const uploadDeadlineWorkflow: WorkflowDefinition<UploadDeadlineInput, UploadDeadlineOutcome> = {
  name: "upload-deadline",
  async run(ctx, input) {
    await ctx.waitUntil(new Date(input.deadline));
    return ctx.activity<UploadDeadlineOutcome>("library.abandonUpload", { documentId: input.documentId }, { maxAttempts: 10, initialBackoffMs: 1000, maxBackoffMs: 60_000 });
  },
};
