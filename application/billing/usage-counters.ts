import { inject, injectable, optional } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import { noMetrics, type OperationsMetrics } from "#application/ports/metrics";
import { Aggregate } from "#application/shared/aggregate";
import type { AllowancePolicy, CounterUsage, PeriodUsage, UsageMeter } from "#application/shared/allowance-policy";
import { type CounterLimits, type UsageCounter, usageDay, usageMonth } from "#domain/billing/plans";
import { dailyBinds, remainingOf, type UsageCommand, type UsageEvent, usageId, usageLimitError, type UsageState, usedOf } from "#domain/billing/usage";
import { usageAggregate } from "#domain/billing/usage-events";
import { DomainError } from "#domain/shared/domain-error";

/** Concurrent reservations at the edge of a limit conflict on one stream; each conflict re-reads and decides again. */
const RESERVATION_ATTEMPTS = 50;

const period = (used: number, limit: number | null): PeriodUsage => ({
  used,
  limit,
  remaining: limit === null ? Number.POSITIVE_INFINITY : Math.max(0, limit - used),
});

/**
 * The usage counters, one stream per user and month (docs/decisions/090, 110):
 * the limits come from the allowance policy (the user's subscription) at the
 * moment of the reservation.
 */
@injectable()
export class UsageCounters implements UsageMeter {
  private readonly usageStreams: Aggregate<UsageCommand, UsageEvent, UsageState>;

  constructor(
    @inject(TOKENS.EventStore) eventStore: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.AllowancePolicy) private readonly policy: AllowancePolicy,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Metrics) @optional() private readonly metrics: OperationsMetrics = noMetrics,
  ) {
    this.usageStreams = new Aggregate(eventStore, ids, usageAggregate);
  }

  private async load(userId: string, at: Date) {
    return (await this.usageStreams.load(usageId(userId, usageMonth(at)))).state;
  }

  private async limitsOf(userId: string, counter: UsageCounter, at: Date): Promise<CounterLimits> {
    return (await this.policy.limits(userId, at))[counter];
  }

  async usage(userId: string, counter: UsageCounter, at: Date): Promise<CounterUsage> {
    const [state, limits] = await Promise.all([this.load(userId, at), this.limitsOf(userId, counter, at)]);
    const day = usageDay(at);
    return {
      daily: period(usedOf(state, counter, day), limits.daily),
      monthly: period(usedOf(state, counter), limits.monthly),
      remaining: remainingOf(state, counter, day, limits),
    };
  }

  /** Every counter at once, for the usage screens. */
  async all(userId: string, at: Date): Promise<Record<UsageCounter, CounterUsage>> {
    const [pages, uploads, messages, workspaces] = await Promise.all(
      (["pages", "uploads", "messages", "workspaces"] as const).map((counter) => this.usage(userId, counter, at)),
    );
    return { pages, uploads, messages, workspaces };
  }

  async check(userId: string, counter: UsageCounter, amount: number, at: Date): Promise<void> {
    const [state, limits] = await Promise.all([this.load(userId, at), this.limitsOf(userId, counter, at)]);
    const day = usageDay(at);
    const error = usageLimitError(counter, amount, remainingOf(state, counter, day, limits), limits, dailyBinds(state, counter, day, limits));
    if (error) throw error;
  }

  async reserve(userId: string, counter: UsageCounter, key: string, amount: number, at: Date, metadata: EventMetadata): Promise<void> {
    const limits = await this.limitsOf(userId, counter, at);
    try {
      await this.usageStreams.handle(
        usageId(userId, usageMonth(at)),
        { type: "ReserveUsage", counter, key, amount, day: usageDay(at), limits, now: this.clock.now() },
        { metadata, maxAttempts: RESERVATION_ATTEMPTS },
      );
    } catch (error) {
      if (error instanceof DomainError) this.metrics.usageReservationRefused(counter);
      throw error;
    }
  }

  async release(userId: string, counter: UsageCounter, key: string, at: Date, metadata: EventMetadata): Promise<void> {
    await this.usageStreams.handle(usageId(userId, usageMonth(at)), { type: "ReleaseUsage", counter, key, now: this.clock.now() }, { metadata, maxAttempts: RESERVATION_ATTEMPTS });
  }
}
