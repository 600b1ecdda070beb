import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";
import type { CounterLimits, UsageCounter } from "./plans";

/**
 * A user's usage for one month (stream `usage-<user>-<yyyy-mm>`): what each
 * piece of work holds on each counter (a document's measured pages, an
 * upload, a question, a workspace), and on which day. Work reserves before it
 * runs and releases when it fails. Written with expected versions, so twenty
 * uploads racing for the last pages cannot all pass (docs/decisions/090, 110).
 */

export type UsageEvent =
  | DomainEvent<"UsageReserved", { counter: UsageCounter; key: string; amount: number; day: string; limits: CounterLimits; reservedAt: string }>
  | DomainEvent<"UsageReleased", { counter: UsageCounter; key: string; releasedAt: string }>;

export type UsageCommand =
  /** Holds `amount` for `key` (replacing what it held) if it fits under the day's and the month's limits. */
  | { type: "ReserveUsage"; counter: UsageCounter; key: string; amount: number; day: string; limits: CounterLimits; now: Date }
  | { type: "ReleaseUsage"; counter: UsageCounter; key: string; now: Date };

export interface Holding {
  amount: number;
  day: string;
}

export interface UsageState {
  /** What each piece of work holds, by counter and key. */
  held: Record<UsageCounter, Record<string, Holding>>;
}

/** Used on a counter over the month, or on one day; `except` leaves out one key (its new amount replaces the old). */
export function usedOf(state: UsageState, counter: UsageCounter, day?: string, except?: string): number {
  return Object.entries(state.held[counter]).reduce(
    (sum, [key, holding]) => (key === except || (day !== undefined && holding.day !== day) ? sum : sum + holding.amount),
    0,
  );
}

/** What is left under both limits (Infinity when neither binds). */
export function remainingOf(state: UsageState, counter: UsageCounter, day: string, limits: CounterLimits, except?: string): number {
  const monthly = limits.monthly === null ? Number.POSITIVE_INFINITY : limits.monthly - usedOf(state, counter, undefined, except);
  const daily = limits.daily === null ? Number.POSITIVE_INFINITY : limits.daily - usedOf(state, counter, day, except);
  return Math.max(0, Math.min(monthly, daily));
}

/** The refusal for `amount` more than is left, in the words the screens show (null when it fits). */
export function usageLimitError(counter: UsageCounter, amount: number, remaining: number, limits: CounterLimits, dailyBinds: boolean): DomainError | null {
  if (amount <= remaining) return null;
  const period = dailyBinds ? "today" : "this month";
  const limit = (dailyBinds ? limits.daily : limits.monthly) ?? 0;
  switch (counter) {
    case "pages":
      return new DomainError("PAGE_LIMIT", `Upload exceeds the total available page limit. You have ${remaining} pages remaining.`);
    case "uploads":
      return new DomainError("UPLOAD_LIMIT", `You have uploaded the ${limit} documents your plan allows ${period}.`);
    case "messages":
      return new DomainError("MESSAGE_LIMIT", `You have used the ${limit} messages of your plan ${period}.`);
    case "workspaces":
      return new DomainError("WORKSPACE_LIMIT", `You have created ${limit} workspaces ${period}, the limit of your plan.`);
  }
}

/** Whether the day's limit is the one that leaves less (so the refusal names the day). */
export function dailyBinds(state: UsageState, counter: UsageCounter, day: string, limits: CounterLimits, except?: string): boolean {
  if (limits.daily === null) return false;
  const daily = limits.daily - usedOf(state, counter, day, except);
  const monthly = limits.monthly === null ? Number.POSITIVE_INFINITY : limits.monthly - usedOf(state, counter, undefined, except);
  return daily < monthly;
}

function reserve(command: Extract<UsageCommand, { type: "ReserveUsage" }>, state: UsageState): UsageEvent[] {
  const { counter, key, amount, day, limits } = command;
  const holding = state.held[counter][key];
  if (holding && holding.amount === amount) return [];
  const remaining = remainingOf(state, counter, holding?.day ?? day, limits, key);
  const error = usageLimitError(counter, amount, remaining, limits, dailyBinds(state, counter, holding?.day ?? day, limits, key));
  if (error) throw error;
  return [{ type: "UsageReserved", data: { counter, key, amount, day: holding?.day ?? day, limits, reservedAt: command.now.toISOString() } }];
}

export function decide(command: UsageCommand, state: UsageState): UsageEvent[] {
  switch (command.type) {
    case "ReserveUsage":
      return reserve(command, state);
    case "ReleaseUsage":
      if (!(command.key in state.held[command.counter])) return [];
      return [{ type: "UsageReleased", data: { counter: command.counter, key: command.key, releasedAt: command.now.toISOString() } }];
  }
}

export function evolve(state: UsageState, event: UsageEvent): UsageState {
  const { counter, key } = event.data;
  switch (event.type) {
    case "UsageReserved":
      return { held: { ...state.held, [counter]: { ...state.held[counter], [key]: { amount: event.data.amount, day: event.data.day } } } };
    case "UsageReleased": {
      const { [key]: _released, ...rest } = state.held[counter];
      return { held: { ...state.held, [counter]: rest } };
    }
  }
}

export const usageDecider: Decider<UsageCommand, UsageEvent, UsageState> = {
  initialState: () => ({ held: { pages: {}, uploads: {}, messages: {}, workspaces: {} } }),
  decide,
  evolve,
};

/** Id of one user's usage for one month ("yyyy-mm"); the stream is `usage-<id>`. */
export const usageId = (userId: string, month: string) => `${userId}-${month}`;
export const usageStreamId = (id: string) => `usage-${id}`;
