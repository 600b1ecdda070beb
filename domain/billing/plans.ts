/**
 * Plans and their monthly limits (spec 001 §9). Usage is counted per month
 * under the key "year:month".
 */
export interface PlanLimits {
  pagesPerMonth: number;
  messagesPerMonth: number;
  /** null = unlimited */
  workspacesPerMonth: number | null;
}

export const PLANS = {
  evergreen: { name: "Evergreen", priceInr: 0, limits: { pagesPerMonth: 200, messagesPerMonth: 500, workspacesPerMonth: 10 } },
  pineMonthly: { name: "Pine (monthly)", priceInr: 199, limits: { pagesPerMonth: 2000, messagesPerMonth: 5000, workspacesPerMonth: null } },
  pineYearly: { name: "Pine (yearly)", priceInr: 1999, limits: { pagesPerMonth: 25000, messagesPerMonth: 60000, workspacesPerMonth: null } },
} as const satisfies Record<string, { name: string; priceInr: number; limits: PlanLimits }>;

export type PlanId = keyof typeof PLANS;

/** Until payments exist, everyone is on the free plan. */
export const DEFAULT_PLAN: PlanId = "evergreen";

export const usageMonthKey = (date: Date) => `${date.getUTCFullYear()}:${date.getUTCMonth() + 1}`;
