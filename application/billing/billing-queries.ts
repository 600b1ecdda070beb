import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { Aggregate } from "#application/shared/aggregate";
import type { CounterUsage } from "#application/shared/allowance-policy";
import { PLAN_IDS, PLANS, type Plan, type UsageCounter } from "#domain/billing/plans";
import { referralCodeOf } from "#domain/billing/referral";
import { referralAggregate } from "#domain/billing/referral-events";
import { ordersOf } from "#projections/billing/billing.queries";
import { type CurrentSubscription, Subscriptions } from "./subscriptions";
import { UsageCounters } from "./usage-counters";

export type { OrderReadModel } from "#projections/billing/billing.queries";

export interface PlanOverview {
  subscription: CurrentSubscription;
  usage: Record<UsageCounter, CounterUsage>;
  plans: Plan[];
}

/** Order History's page size (spec 001 §9: transaction tables page 10). */
export const ORDER_PAGE_SIZE = 10;

/** What the billing screens and API read: the user's plan, their usage against its limits, the plans on offer, orders, referrals. */
@injectable()
export class BillingQueries {
  private readonly referrals;

  constructor(
    @inject(Subscriptions) private readonly subscriptions: Subscriptions,
    @inject(UsageCounters) private readonly counters: UsageCounters,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.EventStore) eventStore: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {
    this.referrals = new Aggregate(eventStore, ids, referralAggregate);
  }

  async overview(userId: string): Promise<PlanOverview> {
    const now = this.clock.now();
    const [subscription, usage] = await Promise.all([this.subscriptions.current(userId, now), this.counters.all(userId, now)]);
    return { subscription, usage, plans: PLAN_IDS.map((id) => PLANS[id]) };
  }

  /** Whether an upload batch's pages fit now; answers what is left, or refuses with PAGE_LIMIT and the spec's message. */
  async checkPages(userId: string, pages: number): Promise<number> {
    const now = this.clock.now();
    await this.counters.check(userId, "pages", pages, now);
    return (await this.counters.usage(userId, "pages", now)).remaining;
  }

  /** Order History, newest first; page is 1-based. */
  orders(userId: string, page: number) {
    return ordersOf(this.readModels, userId, { limit: ORDER_PAGE_SIZE, offset: (Math.max(1, page) - 1) * ORDER_PAGE_SIZE });
  }

  /** The user's referral code and how many people signed up with it. */
  async referral(userId: string): Promise<{ code: string; joined: number }> {
    const { state } = await this.referrals.load(userId);
    return { code: referralCodeOf(userId), joined: state.referred.length };
  }
}
