import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { CounterUsage } from "#application/shared/allowance-policy";
import { PLAN_IDS, PLANS, type Plan, type UsageCounter } from "#domain/billing/plans";
import { type CurrentSubscription, Subscriptions } from "./subscriptions";
import { UsageCounters } from "./usage-counters";

export interface PlanOverview {
  subscription: CurrentSubscription;
  usage: Record<UsageCounter, CounterUsage>;
  plans: Plan[];
}

/** What the billing screens and API read: the user's plan, their usage against its limits, the plans on offer. */
@injectable()
export class BillingQueries {
  constructor(
    @inject(Subscriptions) private readonly subscriptions: Subscriptions,
    @inject(UsageCounters) private readonly counters: UsageCounters,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

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
}
