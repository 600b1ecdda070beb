import type { PlanOverview } from "#application/billing/billing-queries";
import type { CounterUsage } from "#application/shared/allowance-policy";
import { usageDay, usageMonth, type UsageCounter } from "#domain/billing/plans";

/** Usage as loaders send it: only finite numbers (an unlimited counter has limit null). */
export type UsageView = Record<UsageCounter, Pick<CounterUsage, "daily" | "monthly">>;

export function usageView(usage: PlanOverview["usage"]): UsageView {
  const period = (p: CounterUsage["daily"]) => ({ used: p.used, limit: p.limit, remaining: Number.isFinite(p.remaining) ? p.remaining : -1 });
  return Object.fromEntries(Object.entries(usage).map(([counter, u]) => [counter, { daily: period(u.daily), monthly: period(u.monthly) }])) as UsageView;
}

/** The keys the warnings remember per period ("2026-03" and "2026-03-31"). */
export const periodKeys = (now: Date) => ({ month: usageMonth(now), day: usageDay(now) });
