import { z } from "zod";
import type { Decider, DomainEvent } from "./decider";
import { DomainError } from "./domain-error";

/**
 * How one event type is written and read (ARCHITECTURE §3): the schema of its
 * current version, and upcasters that lift an older stored version one step
 * (`upcasters[1]` turns version 1 data into version 2).
 */
export interface EventSchema<Data> {
  version: number;
  data: z.ZodType<Data, z.ZodTypeDef, unknown>;
  upcasters?: Record<number, (data: Record<string, unknown>) => Record<string, unknown>>;
}

/** One schema per event type of an aggregate's union: a missing type does not compile. */
export type EventSchemas<Event extends DomainEvent> = { [Type in Event["type"]]: EventSchema<Extract<Event, { type: Type }>["data"]> };

/**
 * An event's data: the fields named are checked; fields a later version adds
 * pass through untouched, so a schema never silently drops what a decider wrote.
 */
export const eventData = <Shape extends z.ZodRawShape>(shape: Shape) => z.object(shape).passthrough();

/** An aggregate as the write path needs it: how it decides, where it lives, what its events look like. */
export interface AggregateDefinition<Command, Event extends DomainEvent, State> {
  decider: Decider<Command, Event, State>;
  streamId: (id: string) => string;
  events: EventSchemas<Event>;
}

/** Personal data (crypto-shredded, docs/decisions/006): reads as null once its subject was forgotten. */
export const personal = <Shape extends z.ZodRawShape>(shape: Shape) => z.object(shape).nullable();

/** An ISO-8601 timestamp as events store it. */
export const isoTime = z.string().min(1);

export class InvalidEventError extends DomainError {
  constructor(type: string, detail: string) {
    super("INVALID_EVENT", `Event ${type} does not match its schema: ${detail}`);
  }
}

function check<Event extends DomainEvent>(schemas: EventSchemas<Event>, type: string, data: unknown): Event {
  const schema = (schemas as Record<string, EventSchema<unknown>>)[type];
  if (!schema) throw new InvalidEventError(type, "unknown event type");
  const parsed = schema.data.safeParse(data);
  if (!parsed.success) throw new InvalidEventError(type, parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  return { type, data: parsed.data } as Event;
}

/** A stored event, lifted to the current version and validated. */
export function readEvent<Event extends DomainEvent>(schemas: EventSchemas<Event>, stored: { type: string; schemaVersion: number; data: unknown }): Event {
  const schema = (schemas as Record<string, EventSchema<unknown>>)[stored.type];
  if (!schema) throw new InvalidEventError(stored.type, "unknown event type");
  let data = stored.data as Record<string, unknown>;
  for (let version = stored.schemaVersion; version < schema.version; version++) {
    const upcast = schema.upcasters?.[version];
    if (!upcast) throw new InvalidEventError(stored.type, `no upcaster from version ${version}`);
    data = upcast(data);
  }
  return check(schemas, stored.type, data);
}

/** A new event, validated before it is appended; answers the version it is written with. */
export function writeEvent<Event extends DomainEvent>(schemas: EventSchemas<Event>, event: Event): { schemaVersion: number } {
  check(schemas, event.type, event.data);
  return { schemaVersion: (schemas as Record<string, EventSchema<unknown>>)[event.type].version };
}
