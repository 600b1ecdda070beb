import type { WorkflowDefinition } from "#application/ports/workflow";

/**
 * Impersonation expiry (ARCHITECTURE §5, spec 001 §9): wait until the
 * deadline (start + 3600 s) or until the impersonation ends earlier (signal
 * 'ended'); at the deadline end it "by expiry". The activity reads the
 * impersonation's stream, so an impersonation already ended records nothing:
 * it ends exactly once, whichever comes first (the timer, the admin, the
 * server's own check on a request).
 *
 * Started by the administration's reaction to ImpersonationStarted, one run
 * per impersonation (`impersonation-expiry-<id>`).
 */
export interface ImpersonationExpiryInput {
  impersonationId: string;
  /** ISO-8601 deadline. */
  deadline: string;
}

export type ImpersonationExpiryOutcome = { expired: boolean };

/** Every activity this workflow calls (the administration module provides it). */
export type ImpersonationExpiryActivityName = "administration.expireImpersonation";

export const impersonationExpiryWorkflowId = (impersonationId: string) => `impersonation-expiry-${impersonationId}`;

export const impersonationExpiryWorkflow: WorkflowDefinition<ImpersonationExpiryInput, ImpersonationExpiryOutcome> = {
  name: "impersonation-expiry",
  async run(ctx, input) {
    const outcome = await ctx.waitUntil(new Date(input.deadline), { signal: "ended" });
    if (outcome.reason === "signal") return { expired: false };
    return ctx.activity<ImpersonationExpiryOutcome>("administration.expireImpersonation", { impersonationId: input.impersonationId }, { maxAttempts: 10, initialBackoffMs: 1000, maxBackoffMs: 60_000 });
  },
};
