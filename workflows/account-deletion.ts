import type { WorkflowDefinition } from "#application/ports/workflow";

/**
 * Account deletion (ARCHITECTURE §5, spec 001 §4): wait until the purge time,
 * or until the user retrieves the account (signal 'retrieve'); then purge.
 *
 * One long-lived run per user (`account-deletion-<userId>`): the engines start
 * a workflow id only once, so after a retrieval the run waits for the next
 * 'schedule' signal instead of ending. The account's state in the event store
 * (read through an activity, so replays see the recorded answer) decides each
 * turn; the signals only wake the run up.
 */
export interface AccountDeletionInput {
  userId: string;
}

export interface DeletionPlan {
  status: "ACTIVE" | "PENDING_DELETE" | "PURGING" | "PURGED" | "MISSING";
  purgeAt: string | null;
}

export type AccountDeletionOutcome = { purged: true } | { purged: false; reason: string };

export const accountDeletionWorkflowId = (userId: string) => `account-deletion-${userId}`;

/**
 * Purge steps in order. Mail copies and reservations go while the email and
 * names can still be read, before the key is forgotten; the stores are
 * compacted last, once the projectors have deleted the read models.
 */
export const PURGE_STEPS = [
  "identity.purge.revokeSessions",
  "identity.purge.deleteBlobs",
  "identity.purge.deleteSearchEntries",
  "identity.purge.deleteMail",
  "identity.purge.releaseReservations",
  "identity.purge.forgetSubjectKey",
  "identity.purge.complete",
  "identity.purge.compactStores",
] as const;

/** Every activity this workflow calls (the identity module provides them). */
export type AccountDeletionActivityName = "identity.deletionPlan" | "identity.purge.start" | (typeof PURGE_STEPS)[number];

const IDLE_WAIT_MS = 365 * 24 * 60 * 60 * 1000;

export const accountDeletionWorkflow: WorkflowDefinition<AccountDeletionInput, AccountDeletionOutcome> = {
  name: "account-deletion",
  async run(ctx, input) {
    for (;;) {
      const plan = await ctx.activity<DeletionPlan>("identity.deletionPlan", input);
      if (plan.status === "MISSING") return { purged: false, reason: "no such account" };
      if (plan.status === "PURGED") return { purged: true };
      if (plan.status === "PENDING_DELETE" && plan.purgeAt) {
        const outcome = await ctx.waitUntil(new Date(plan.purgeAt), { signal: "retrieve" });
        if (outcome.reason === "signal") continue;
        const started = await ctx.activity<{ started: boolean }>("identity.purge.start", input);
        if (!started.started) continue; // retrieved just before the timer fired
      }
      if (plan.status === "PENDING_DELETE" || plan.status === "PURGING") {
        for (const step of PURGE_STEPS) await ctx.activity(step, input, { maxAttempts: 10, initialBackoffMs: 1000, maxBackoffMs: 60_000 });
        return { purged: true };
      }
      // ACTIVE (retrieved): sleep until the account is scheduled again.
      await ctx.waitUntil(new Date(ctx.now().getTime() + IDLE_WAIT_MS), { signal: "schedule" });
    }
  },
};
