/**
 * Plans, their prices and the limits of every usage counter (spec 001 §9;
 * daily limits and the yearly plan's monthly share: docs/decisions/110).
 */

/** What is counted against a plan. */
export const USAGE_COUNTERS = ["pages", "uploads", "messages", "workspaces"] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];
export type UsagePeriod = "daily" | "monthly";

/** A counter's limit per day and per month; null = unlimited. */
export interface CounterLimits {
  daily: number | null;
  monthly: number | null;
}
export type PlanLimits = Record<UsageCounter, CounterLimits>;

export interface Plan {
  id: PlanId;
  name: string;
  /** How long one payment lasts (prepaid), or null for the free plan and pay-as-you-go. */
  billingPeriod: "monthly" | "yearly" | null;
  priceInr: number;
  /** What the plan card lists, per billing period (the spec's figures). */
  headline: { pages: number; messages: number; workspaces: number | null };
  limits: PlanLimits;
  /** Shown, but cannot be bought yet (Fern). */
  comingSoon: boolean;
  recommended: boolean;
}

export const PLAN_IDS = ["evergreen", "pine-monthly", "pine-yearly", "fern"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const PLANS: Record<PlanId, Plan> = {
  evergreen: {
    id: "evergreen",
    name: "Evergreen",
    billingPeriod: null,
    priceInr: 0,
    headline: { pages: 200, messages: 500, workspaces: 10 },
    limits: {
      pages: { daily: 200, monthly: 200 },
      uploads: { daily: 50, monthly: 100 },
      messages: { daily: 100, monthly: 500 },
      workspaces: { daily: 10, monthly: 10 },
    },
    comingSoon: false,
    recommended: false,
  },
  "pine-monthly": {
    id: "pine-monthly",
    name: "Pine",
    billingPeriod: "monthly",
    priceInr: 199,
    headline: { pages: 2000, messages: 5000, workspaces: null },
    limits: {
      pages: { daily: 1000, monthly: 2000 },
      uploads: { daily: 200, monthly: 1000 },
      messages: { daily: 1000, monthly: 5000 },
      workspaces: { daily: null, monthly: null },
    },
    comingSoon: false,
    recommended: true,
  },
  "pine-yearly": {
    id: "pine-yearly",
    name: "Pine",
    billingPeriod: "yearly",
    priceInr: 1999,
    headline: { pages: 25000, messages: 60000, workspaces: null },
    // The year's figures spread over its twelve months (rounded up), so a year's plan cannot be spent in one month.
    limits: {
      pages: { daily: 1000, monthly: 2084 },
      uploads: { daily: 200, monthly: 1000 },
      messages: { daily: 1000, monthly: 5000 },
      workspaces: { daily: null, monthly: null },
    },
    comingSoon: false,
    recommended: true,
  },
  fern: {
    id: "fern",
    name: "Fern",
    billingPeriod: null,
    priceInr: 0,
    headline: { pages: 0, messages: 0, workspaces: null },
    limits: {
      pages: { daily: null, monthly: null },
      uploads: { daily: null, monthly: null },
      messages: { daily: null, monthly: null },
      workspaces: { daily: null, monthly: null },
    },
    comingSoon: true,
    recommended: false,
  },
};

/** Fern's pay-as-you-go prices in INR (spec 001 §9). */
export const FERN_RATES_INR = { perPage: 0.1, perWorkspace: 0.01, perMessage: 0.05 } as const;

/** Everyone starts on the free plan. */
export const DEFAULT_PLAN: PlanId = "evergreen";

export const isPlanId = (value: string): value is PlanId => (PLAN_IDS as readonly string[]).includes(value);

/**
 * Usage periods are kept in India Standard Time (UTC+05:30, no daylight
 * saving): the product sells in INR and its identity region is ap-south-1, so
 * a month or day ends at midnight where its users are (docs/decisions/110).
 */
const IST_OFFSET_MS = 330 * 60_000;
const inIst = (date: Date) => new Date(date.getTime() + IST_OFFSET_MS);
const pad = (n: number) => String(n).padStart(2, "0");

/** The month a usage counter covers, "yyyy-mm" (the stream id's part). */
export const usageMonth = (date: Date) => `${inIst(date).getUTCFullYear()}-${pad(inIst(date).getUTCMonth() + 1)}`;
/** The day a daily counter covers, "yyyy-mm-dd". */
export const usageDay = (date: Date) => `${usageMonth(date)}-${pad(inIst(date).getUTCDate())}`;
/** The spec's usage key "year:month" (spec 001 §9). */
export const usageMonthKey = (date: Date) => `${inIst(date).getUTCFullYear()}:${inIst(date).getUTCMonth() + 1}`;
