import type { IHeaders, Kafka, KafkaMessage, Producer, ProducerRecord } from "kafkajs";
import type { EventStore, RecordedEvent, Subscription } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";

/** Where the relay keeps its position in the log (the read-model store, like projection checkpoints). */
export const RELAY_CHECKPOINT_COLLECTION = "relay_checkpoints";

interface RelayCheckpoint {
  id: string;
  position: number;
}

/** The message value: the recorded event as integration event. */
export interface IntegrationEvent {
  eventId: string;
  streamId: string;
  streamVersion: number;
  position: number;
  type: string;
  schemaVersion: number;
  context: string;
  data: Record<string, unknown>;
  metadata: RecordedEvent["metadata"];
  recordedAt: string;
}

export interface RelayLogger {
  info(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

/**
 * Bounded context of an event. Stream ids are `<category>-<id>` (user-…,
 * chat-layout-…); categories map to contexts through `contexts` (the longest
 * listed category the id starts with wins), and an id whose category is not
 * listed is the context named by its first word.
 */
export function contextOfStream(streamId: string, contexts: Record<string, string> = {}): string {
  let match: string | null = null;
  for (const category of Object.keys(contexts)) {
    if (streamId.startsWith(`${category}-`) && (match === null || category.length > match.length)) match = category;
  }
  if (match !== null) return contexts[match];
  const dash = streamId.indexOf("-");
  return dash > 0 ? streamId.slice(0, dash) : streamId;
}

export interface KafkaRelayOptions {
  eventStore: EventStore;
  /** Holds the relay's checkpoint. */
  checkpoints: ReadModelStore;
  /** A kafkajs producer (idempotent, acks=all: see KafkaRelay.createProducer). */
  producer: Pick<Producer, "send">;
  /** Stream category -> bounded context (e.g. { user: "identity", email: "identity" }). */
  contexts?: Record<string, string>;
  /** Topic name prefix: topics are `<prefix>.<context>` (default "docuchat"). */
  topicPrefix?: string;
  /** Checkpoint name, so several relays (e.g. to different clusters) can run (default "kafka-relay"). */
  name?: string;
  logger?: RelayLogger;
  /** First retry delay after a failed publish, doubled per failure up to retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

/**
 * Publishes every committed event to Kafka, one topic per bounded context,
 * keyed by stream id (so one stream's events stay in order on one partition),
 * from a checkpointed catch-up subscription of the whole log.
 *
 * Delivery is at-least-once: the checkpoint moves only after Kafka acknowledged
 * the event, so a crash between the two publishes it again. Consumers therefore
 * deduplicate by event id (header `event-id`; see consumeOnce).
 */
export class KafkaRelay {
  private subscription: Subscription | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = true;
  private current = 0;
  private readonly name: string;
  private readonly topicPrefix: string;

  constructor(private readonly options: KafkaRelayOptions) {
    this.name = options.name ?? "kafka-relay";
    this.topicPrefix = options.topicPrefix ?? "docuchat";
  }

  /**
   * An idempotent producer that waits for all in-sync replicas: no duplicates from the producer's own retries.
   * kafkajs is imported here, not with the server bundle: an installation without Kafka never loads it (decision 253).
   */
  static async createProducer(options: { brokers: string[]; clientId?: string }): Promise<{ kafka: Kafka; producer: Producer }> {
    const { Kafka } = await import("kafkajs");
    const kafka = new Kafka({ clientId: options.clientId ?? "docuchat-relay", brokers: options.brokers });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
    return { kafka, producer };
  }

  topicFor(event: RecordedEvent): string {
    return `${this.topicPrefix}.${contextOfStream(event.streamId, this.options.contexts)}`;
  }

  /** Position of the last event Kafka acknowledged. */
  get position(): number {
    return this.current;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.launch();
  }

  private get checkpoints() {
    return this.options.checkpoints.collection<RelayCheckpoint>(RELAY_CHECKPOINT_COLLECTION);
  }

  private async launch(): Promise<void> {
    if (this.stopped) return;
    try {
      this.current = (await this.checkpoints.get(this.name))?.position ?? 0;
    } catch (error) {
      this.fail(error);
      return;
    }
    this.options.logger?.info({ relay: this.name, position: this.current }, "kafka relay started");
    this.subscription = this.options.eventStore.subscribeToAll({
      fromPosition: this.current,
      onEvent: (event) => this.publish(event),
      onError: (error) => this.fail(error),
    });
  }

  private async publish(event: RecordedEvent): Promise<void> {
    if (event.position <= this.current) return;
    const context = contextOfStream(event.streamId, this.options.contexts);
    const value: IntegrationEvent = {
      eventId: event.eventId,
      streamId: event.streamId,
      streamVersion: event.streamVersion,
      position: event.position,
      type: event.type,
      schemaVersion: event.schemaVersion,
      context,
      data: event.data,
      metadata: event.metadata,
      recordedAt: event.recordedAt,
    };
    const record: ProducerRecord = {
      topic: `${this.topicPrefix}.${context}`,
      acks: -1,
      messages: [
        {
          key: event.streamId,
          value: JSON.stringify(value),
          headers: {
            "event-id": event.eventId,
            "event-type": event.type,
            "schema-version": String(event.schemaVersion),
            "correlation-id": event.metadata.correlationId,
            // W3C trace context where the event was traced, under the header name Kafka's tracing conventions use.
            ...(event.metadata.traceparent ? { traceparent: event.metadata.traceparent } : {}),
            ...(event.metadata.tracestate ? { tracestate: event.metadata.tracestate } : {}),
          },
        },
      ],
    };
    await this.options.producer.send(record);
    await this.checkpoints.upsert({ id: this.name, position: event.position });
    this.current = event.position;
    this.failures = 0;
  }

  /** Kafka unreachable or a send refused: stop, and resubscribe from the checkpoint later (backoff). */
  private fail(error: unknown): void {
    this.subscription = null;
    this.failures += 1;
    const delay = Math.min(this.options.retryMaxMs ?? 30_000, (this.options.retryBaseMs ?? 500) * 2 ** (this.failures - 1));
    this.options.logger?.error({ relay: this.name, position: this.current, err: error, retryInMs: delay }, "kafka relay failed");
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.launch();
    }, delay);
    this.retryTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }
}

function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/** The integration event of a Kafka message published by the relay. */
export function parseIntegrationMessage(message: Pick<KafkaMessage, "value" | "headers">): IntegrationEvent {
  if (!message.value) throw new Error("Kafka message without a value");
  const event = JSON.parse(message.value.toString("utf8")) as IntegrationEvent;
  const headerId = headerText(message.headers, "event-id");
  if (headerId !== undefined && headerId !== event.eventId) throw new Error(`event-id header ${headerId} does not match the body`);
  return event;
}

interface ConsumedMarker {
  id: string;
  position: number;
  consumedAt: string;
}

/**
 * Runs a consumer's handler once per event id: the relay delivers at least
 * once, so a redelivered event is recognised and skipped. The handler's
 * read-model writes and the marker commit together where the store supports
 * transactions. Returns false when the event had been handled already.
 */
export async function consumeOnce(
  store: ReadModelStore,
  consumer: string,
  event: IntegrationEvent,
  handle: (event: IntegrationEvent) => Promise<void>,
): Promise<boolean> {
  if (!/^[a-z][a-z0-9_]*$/.test(consumer)) throw new Error(`Invalid consumer name ${JSON.stringify(consumer)}`);
  const seen = store.collection<ConsumedMarker>(`consumed_${consumer}`);
  return store.transaction(async () => {
    if (await seen.get(event.eventId)) return false;
    await handle(event);
    await seen.upsert({ id: event.eventId, position: event.position, consumedAt: new Date().toISOString() });
    return true;
  });
}
