import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import { Aggregate } from "#application/shared/aggregate";
import type { AllowancePolicy } from "#application/shared/allowance-policy";
import { type Plan, type PlanId, type PlanLimits, PLANS } from "#domain/billing/plans";
import { planAt, type PrepaidPeriod, type SubscriptionCommand, type SubscriptionEvent, type SubscriptionState, type SubscriptionStatus } from "#domain/billing/subscription";
import { subscriptionAggregate } from "#domain/billing/subscription-events";

export interface CurrentSubscription {
  subscriptionId: string;
  plan: Plan;
  status: SubscriptionStatus;
  /** The paid period in force (null on Evergreen) and those bought to follow it. */
  period: PrepaidPeriod | null;
  upcoming: PrepaidPeriod[];
}

/** A user's plan, read from their subscription stream (strongly consistent: a payment's new limits apply at once). */
@injectable()
export class Subscriptions implements AllowancePolicy {
  private readonly subscriptions: Aggregate<SubscriptionCommand, SubscriptionEvent, SubscriptionState>;

  constructor(
    @inject(TOKENS.EventStore) eventStore: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {
    this.subscriptions = new Aggregate(eventStore, ids, subscriptionAggregate);
  }

  async current(userId: string, at: Date = this.clock.now()): Promise<CurrentSubscription> {
    const { state } = await this.subscriptions.load(userId);
    const { planId, period } = planAt(state, at);
    return {
      subscriptionId: `subscription-${userId}`,
      plan: PLANS[planId],
      status: "ACTIVE",
      period,
      upcoming: state.periods.filter((p) => new Date(p.startsAt).getTime() > at.getTime()),
    };
  }

  async limits(userId: string, at: Date): Promise<PlanLimits> {
    return (await this.current(userId, at)).plan.limits;
  }

  /** Adds the prepaid period a paid order bought (once per order). */
  async prepay(userId: string, orderId: string, planId: PlanId, metadata: EventMetadata): Promise<void> {
    await this.subscriptions.handle(userId, { type: "PrepayPeriod", orderId, planId, now: this.clock.now() }, { metadata });
  }
}
