import { v7 as uuidv7 } from "uuid";
import type { Clock } from "#application/ports/clock";
import type { IdGenerator } from "#application/ports/ids";

export const systemClock: Clock = { now: () => new Date() };

/** UUIDv7: time-ordered (sortable) with 74 random bits (unguessable). */
export const uuidV7Ids: IdGenerator = { next: () => uuidv7() };

/** A clock tests can move. */
export class ManualClock implements Clock {
  constructor(private current = new Date("2026-01-01T00:00:00Z")) {}
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(date: Date) {
    this.current = new Date(date);
  }
}
