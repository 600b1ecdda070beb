import type { CounterUsage } from "#application/shared/allowance-policy";
import type { UsageCounter, UsagePeriod } from "#domain/billing/plans";

/** One counter in one period as the screens show it (null limit = unlimited). */
export interface UsageRow {
  counter: UsageCounter;
  label: string;
  used: number;
  limit: number | null;
  /** used / limit × 100, one decimal (spec 001 §9); null when unlimited. */
  percent: number | null;
}

export const COUNTER_LABELS: Record<UsageCounter, string> = {
  pages: "Document pages",
  uploads: "Document uploads",
  messages: "Messages",
  workspaces: "Workspaces",
};

export const percentUsed = (used: number, limit: number | null) => (limit === null || limit === 0 ? null : Math.round((used / limit) * 1000) / 10);

/** The rows of one period, in the screens' order. */
export function usageRows(usage: Record<UsageCounter, Pick<CounterUsage, UsagePeriod>>, period: UsagePeriod): UsageRow[] {
  return (Object.keys(COUNTER_LABELS) as UsageCounter[]).map((counter) => {
    const { used, limit } = usage[counter][period];
    return { counter, label: COUNTER_LABELS[counter], used, limit, percent: percentUsed(used, limit) };
  });
}

/**
 * Billing dates as the spec shows dates (dd/MM/yyyy hh:mm:ss a), in India
 * Standard Time like the usage periods, so the server's render and the browser's agree.
 */
export const formatBillingDate = (iso: string, withTime = true) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: "Asia/Kolkata",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    ...(withTime ? { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h12" } : {}),
  }).format(new Date(iso));

export const formatLimit = (limit: number | null) => (limit === null ? "Unlimited" : limit.toLocaleString("en-IN"));
export const formatInr = (minor: number, currency = "INR") => `${currency} ${(minor / 100).toLocaleString("en-IN", { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;

/** What the plan and usage screens say about questions answered with the user's own key (docs/decisions/110). */
export const OWN_KEY_NOTE = "Messages answered with your own API key do not count against your plan.";
