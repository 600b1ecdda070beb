import { randomUUID } from "node:crypto";
import type { ProducerRecord, RecordMetadata } from "kafkajs";
import { afterEach, describe, expect, it } from "vitest";
import type { NewEvent } from "#application/ports/event-store";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { consumeOnce, contextOfStream, KafkaRelay, parseIntegrationMessage } from "./kafka-relay";

/**
 * The relay's own logic (checkpoints, topics, keys, retries) on the embedded
 * event and read-model stores, with a recording producer in place of a broker.
 * The same relay against a real broker: tests/contracts/kafka-relay.production.test.ts.
 */
class RecordingProducer {
  readonly records: ProducerRecord[] = [];
  failNext = 0;
  async send(record: ProducerRecord): Promise<RecordMetadata[]> {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error("broker unavailable");
    }
    this.records.push(record);
    return [];
  }
  get messages() {
    return this.records.flatMap((r) => r.messages.map((m) => ({ topic: r.topic, key: m.key, value: JSON.parse(String(m.value)), headers: m.headers })));
  }
}

const event = (type: string): NewEvent => ({
  eventId: randomUUID(),
  type,
  schemaVersion: 1,
  data: { type },
  metadata: { correlationId: "corr", actorId: "user-1" },
});

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("KafkaRelay", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  function stores() {
    const eventsDb = openDatabase(":memory:");
    const modelsDb = openDatabase(":memory:");
    const eventStore = new SqliteEventStore(eventsDb, { pollIntervalMs: 20 });
    const readModels = new SqliteReadModelStore(modelsDb);
    cleanups.push(async () => {
      await eventStore.close();
      await readModels.close();
      eventsDb.close();
      modelsDb.close();
    });
    return { eventStore, readModels };
  }

  it("maps stream categories to bounded contexts", () => {
    expect(contextOfStream("user-0192", { user: "identity" })).toBe("identity");
    expect(contextOfStream("workspace-42")).toBe("workspace");
    expect(contextOfStream("standalone")).toBe("standalone");
  });

  it("publishes history and live events once, to the context's topic, keyed by stream id, with the event id header and any trace context", async () => {
    const { eventStore, readModels } = stores();
    await eventStore.append("user-1", [event("UserRegistered")], "no_stream");
    // Appended inside a trace: consumers continue it from the message's traceparent header.
    const traced = event("DocumentUploaded");
    await eventStore.append("document-9", [{ ...traced, metadata: { ...traced.metadata, traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" } }], "no_stream");
    const producer = new RecordingProducer();
    const relay = new KafkaRelay({ eventStore, checkpoints: readModels, producer, contexts: { user: "identity", document: "library" } });
    cleanups.push(() => relay.stop());
    await relay.start();
    await eventStore.append("user-1", [event("EmailVerified")], 0);
    await until(() => producer.messages.length === 3);
    const messages = producer.messages;
    expect(messages.map((m) => [m.topic, m.key, m.value.type])).toEqual([
      ["docuchat.identity", "user-1", "UserRegistered"],
      ["docuchat.library", "document-9", "DocumentUploaded"],
      ["docuchat.identity", "user-1", "EmailVerified"],
    ]);
    expect(messages[0].headers?.["event-id"]).toBe(messages[0].value.eventId);
    expect(messages[0].headers?.traceparent).toBeUndefined();
    expect(messages[1].headers?.traceparent).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    expect(messages[0].value).toMatchObject({ streamId: "user-1", streamVersion: 0, context: "identity", schemaVersion: 1 });
    expect(producer.records.every((r) => r.acks === -1)).toBe(true);
    expect(relay.position).toBe(await eventStore.headPosition());
  });

  it("resumes from its stored checkpoint after a restart: nothing published twice", async () => {
    const { eventStore, readModels } = stores();
    const producer = new RecordingProducer();
    await eventStore.append("user-1", [event("A"), event("B")], "no_stream");
    const first = new KafkaRelay({ eventStore, checkpoints: readModels, producer });
    await first.start();
    await until(() => producer.messages.length === 2);
    await first.stop();
    await eventStore.append("user-1", [event("C")], 1);
    const second = new KafkaRelay({ eventStore, checkpoints: readModels, producer });
    cleanups.push(() => second.stop());
    await second.start();
    await until(() => producer.messages.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(producer.messages.map((m) => m.value.type)).toEqual(["A", "B", "C"]);
  });

  it("retries from the checkpoint when the broker refuses, without skipping an event", async () => {
    const { eventStore, readModels } = stores();
    const producer = new RecordingProducer();
    producer.failNext = 2;
    await eventStore.append("user-1", [event("A"), event("B")], "no_stream");
    const relay = new KafkaRelay({ eventStore, checkpoints: readModels, producer, retryBaseMs: 10 });
    cleanups.push(() => relay.stop());
    await relay.start();
    await until(() => producer.messages.length === 2);
    expect(producer.messages.map((m) => m.value.type)).toEqual(["A", "B"]);
  });

  it("consumeOnce handles a redelivered event (same event id) only once", async () => {
    const { readModels } = stores();
    const producer = new RecordingProducer();
    const { eventStore } = stores();
    await eventStore.append("user-1", [event("A")], "no_stream");
    const relay = new KafkaRelay({ eventStore, checkpoints: readModels, producer });
    cleanups.push(() => relay.stop());
    await relay.start();
    await until(() => producer.messages.length === 1);
    const [record] = producer.records;
    const message = { value: Buffer.from(String(record.messages[0].value)), headers: record.messages[0].headers };
    const handled: string[] = [];
    const handle = async (e: { type: string }) => void handled.push(e.type);
    expect(await consumeOnce(readModels, "billing", parseIntegrationMessage(message), handle)).toBe(true);
    expect(await consumeOnce(readModels, "billing", parseIntegrationMessage(message), handle)).toBe(false);
    expect(handled).toEqual(["A"]);
  });
});
