import type { EventMetadata } from "#application/ports/event-store";
import type { PlanLimits, UsageCounter } from "#domain/billing/plans";

export type { UsageCounter } from "#domain/billing/plans";

/**
 * What a user's plan grants: each counter's daily and monthly limit. The
 * billing context answers from the user's subscription (docs/decisions/051, 110).
 */
export interface AllowancePolicy {
  limits(userId: string, at: Date): Promise<PlanLimits>;
}

/** One counter's use in one period (limit null = unlimited, remaining then Infinity). */
export interface PeriodUsage {
  used: number;
  limit: number | null;
  remaining: number;
}

export interface CounterUsage {
  daily: PeriodUsage;
  monthly: PeriodUsage;
  /** What can still be used now: the smaller of the two. */
  remaining: number;
}

/**
 * The usage counters every context spends (pages, uploads, messages,
 * workspaces), kept by billing on a strongly consistent stream per user and
 * month. Work reserves before it runs and releases when it fails; a refusal
 * is a DomainError (PAGE_LIMIT, UPLOAD_LIMIT, MESSAGE_LIMIT, WORKSPACE_LIMIT)
 * whose message the screens show as it is.
 */
export interface UsageMeter {
  /** Use and limits of the day and month of `at`. */
  usage(userId: string, counter: UsageCounter, at: Date): Promise<CounterUsage>;
  /** The early answer: refuses `amount` more that cannot fit now; holds nothing. */
  check(userId: string, counter: UsageCounter, amount: number, at: Date): Promise<void>;
  /**
   * Holds `amount` for `key` in the day and month of `at` (a key's new amount
   * replaces its old one; the same amount again records nothing), or refuses.
   */
  reserve(userId: string, counter: UsageCounter, key: string, amount: number, at: Date, metadata: EventMetadata): Promise<void>;
  /** Gives back what `key` held in the month of `at` (nothing when it held nothing). */
  release(userId: string, counter: UsageCounter, key: string, at: Date, metadata: EventMetadata): Promise<void>;
}
