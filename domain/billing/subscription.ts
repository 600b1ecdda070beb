import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";
import { DEFAULT_PLAN, PLANS, type PlanId } from "./plans";

/**
 * A user's subscription (stream `subscription-<user>`): the prepaid periods
 * they bought. Plans are sold as prepaid months or years, so there is no
 * mandate to cancel: outside a paid period the user is on Evergreen. A period
 * bought while another runs starts when that one ends.
 */

export type PrepaidPeriod = {
  orderId: string;
  planId: PlanId;
  startsAt: string;
  endsAt: string;
};

export type SubscriptionEvent = DomainEvent<"PeriodPrepaid", PrepaidPeriod & { prepaidAt: string }>;

export type SubscriptionCommand = { type: "PrepayPeriod"; orderId: string; planId: PlanId; now: Date };

export interface SubscriptionState {
  periods: PrepaidPeriod[];
}

export type SubscriptionStatus = "ACTIVE";

/** The plan in force at `at`, and the period that grants it (null on Evergreen). */
export function planAt(state: SubscriptionState, at: Date): { planId: PlanId; period: PrepaidPeriod | null } {
  const time = at.getTime();
  const period = state.periods.find((p) => new Date(p.startsAt).getTime() <= time && time < new Date(p.endsAt).getTime()) ?? null;
  return { planId: period?.planId ?? DEFAULT_PLAN, period };
}

function periodEnd(start: Date, billingPeriod: "monthly" | "yearly"): Date {
  const end = new Date(start);
  if (billingPeriod === "monthly") end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  return end;
}

export function decide(command: SubscriptionCommand, state: SubscriptionState): SubscriptionEvent[] {
  // The same order paid twice (a webhook and the browser's confirmation) prepays once.
  if (state.periods.some((p) => p.orderId === command.orderId)) return [];
  const plan = PLANS[command.planId];
  if (!plan.billingPeriod || plan.comingSoon) throw new DomainError("PLAN_NOT_FOR_SALE", `${plan.name} cannot be bought.`);
  const lastEnd = state.periods.reduce((latest, p) => Math.max(latest, new Date(p.endsAt).getTime()), 0);
  const start = new Date(Math.max(command.now.getTime(), lastEnd));
  return [
    {
      type: "PeriodPrepaid",
      data: {
        orderId: command.orderId,
        planId: command.planId,
        startsAt: start.toISOString(),
        endsAt: periodEnd(start, plan.billingPeriod).toISOString(),
        prepaidAt: command.now.toISOString(),
      },
    },
  ];
}

export function evolve(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  const { prepaidAt: _at, ...period } = event.data;
  return { periods: [...state.periods, period] };
}

export const subscriptionDecider: Decider<SubscriptionCommand, SubscriptionEvent, SubscriptionState> = {
  initialState: () => ({ periods: [] }),
  decide,
  evolve,
};

export const subscriptionStreamId = (userId: string) => `subscription-${userId}`;
