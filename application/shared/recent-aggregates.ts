import type { DomainEvent } from "#domain/shared/decider";
import type { Loaded } from "./aggregate";

/** Events kept per store and aggregate type; the least recently used streams go first beyond it. */
export const RECENT_EVENTS_BUDGET = 50_000;

/**
 * Aggregates this process folded or appended to lately, by stream id, each
 * with the stream version its state was folded from. An entry is only a
 * guess at the stream's head: the append's expected-version check, which the
 * event store makes under its write lock, is what proves it still holds (a
 * write by another process or another cache makes it fail, and the helper
 * reads the stream afresh).
 */
export class RecentAggregates<Event extends DomainEvent, State> {
  private readonly entries = new Map<string, Loaded<Event, State>>();
  private events = 0;

  constructor(private readonly budget = RECENT_EVENTS_BUDGET) {}

  get(streamId: string): Loaded<Event, State> | undefined {
    const entry = this.entries.get(streamId);
    if (!entry) return undefined;
    // Most recently used last, so eviction takes the oldest first.
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    return entry;
  }

  /** Keeps what was folded at its version, unless a newer version is already kept (a slow read finishing late). */
  remember(streamId: string, loaded: Loaded<Event, State>): void {
    const kept = this.entries.get(streamId);
    if (kept && kept.version > loaded.version) return;
    this.forget(streamId);
    if (loaded.events.length > this.budget) return;
    this.entries.set(streamId, loaded);
    this.events += loaded.events.length;
    for (const [oldest, entry] of this.entries) {
      if (this.events <= this.budget) break;
      this.entries.delete(oldest);
      this.events -= entry.events.length;
    }
  }

  forget(streamId: string): void {
    const kept = this.entries.get(streamId);
    if (!kept) return;
    this.entries.delete(streamId);
    this.events -= kept.events.length;
  }
}
