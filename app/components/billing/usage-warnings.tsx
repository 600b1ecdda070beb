import { useEffect } from "react";
import { useToast } from "#app/components/toast";
import type { UsageRow } from "./usage";

/** From this share of a limit on, the user is told it is near. */
const NEAR_PERCENT = 80;

/**
 * Tells the user once when a limit is near and once when it is reached: each
 * warning is remembered in this browser by user, counter, period and level.
 */
export function UsageWarnings({ userId, period, periodKey, rows }: { userId: string; period: "month" | "day"; periodKey: string; rows: UsageRow[] }) {
  const toast = useToast();
  useEffect(() => {
    const when = period === "month" ? "this month" : "today";
    for (const row of rows) {
      if (row.percent === null || row.percent < NEAR_PERCENT) continue;
      const reached = row.percent >= 100;
      const key = `docuchat.usage-warning.${userId}.${periodKey}.${row.counter}.${reached ? "reached" : "near"}`;
      try {
        if (window.localStorage.getItem(key)) continue;
        window.localStorage.setItem(key, "1");
      } catch {
        // Storage refused (private mode): warn, at worst again next time.
      }
      toast.push({
        type: reached ? "error" : "info",
        message: reached
          ? `You have reached your plan's limit for ${row.label.toLowerCase()} ${when} (${row.used} of ${row.limit}).`
          : `You have used ${row.percent}% of your plan's ${row.label.toLowerCase()} ${when} (${row.used} of ${row.limit}).`,
      });
    }
  }, [rows, userId, period, periodKey, toast]);
  return null;
}
