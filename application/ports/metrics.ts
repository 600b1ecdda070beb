/**
 * What the app counts for its operators (issue 32). Every label is drawn from a
 * bounded set (a context, a command type, a provider, an outcome), never a
 * user, a document or a path with ids in it. The Prometheus adapter lives in
 * infrastructure/observability; tests and tools use `noMetrics`.
 */
export type CommandOutcome = "accepted" | "unchanged" | "refused" | "conflict";

export interface OperationsMetrics {
  /** One command on a stream: appended, nothing to do, refused by the decider, or lost a race (each retry counts). */
  commandHandled(streamId: string, commandType: string, outcome: CommandOutcome): void;
  /** A usage counter refused a reservation (a plan limit reached). */
  usageReservationRefused(counter: string): void;
  /** A document reached ACTIVE or FAILED: from its file's arrival to that moment. */
  ingestionFinished(outcome: "active" | "failed", seconds: number, pages: number): void;
  ocrPagesRead(pages: number): void;
  /** One streamed answer from a provider's model ("built-in" for the built-in one). */
  answerStreamed(provider: string, outcome: "completed" | "failed", firstTokenSeconds: number | null, durationSeconds: number): void;
  /** A call to a provider failed (stream, summary, suggestions, embeddings). */
  providerError(provider: string, operation: string): void;
  /** One attempt at a workflow activity ended; "cancelled" is a stop, which spends no attempt and is no failure (issue 42). */
  activityAttemptEnded(activity: string, outcome: "completed" | "retried" | "failed" | "cancelled"): void;
}

export const noMetrics: OperationsMetrics = {
  commandHandled: () => undefined,
  usageReservationRefused: () => undefined,
  ingestionFinished: () => undefined,
  ocrPagesRead: () => undefined,
  answerStreamed: () => undefined,
  providerError: () => undefined,
  activityAttemptEnded: () => undefined,
};
