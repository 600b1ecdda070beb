import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { KafkaRelay, parseIntegrationMessage, type IntegrationEvent } from "#infrastructure/production/kafka-relay";
import { serverFor, useServer } from "../support/server-availability";

/**
 * The relay against a real broker (KAFKA_BROKERS or Testcontainers). The relay
 * has no embedded twin (embedded mode keeps integration events in-process), so
 * this suite checks what Kafka adds: topics per context, keys, headers, and
 * that a consumer group reads each event once. Relay logic on its own:
 * infrastructure/production/kafka-relay.test.ts (offline).
 */
const plan = await serverFor("kafka");

describe.skipIf(plan.skip !== undefined)(`Kafka relay (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("publishes each committed event to its context's topic, keyed by stream id, readable once by a consumer group", async () => {
    if (!server) throw new Error("unreachable");
    const brokers = server().url.split(",");
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const eventsDb = openDatabase(":memory:");
    const modelsDb = openDatabase(":memory:");
    const eventStore = new SqliteEventStore(eventsDb, { pollIntervalMs: 20 });
    const readModels = new SqliteReadModelStore(modelsDb);
    const { kafka, producer } = await KafkaRelay.createProducer({ brokers });
    await producer.connect();
    const relay = new KafkaRelay({ eventStore, checkpoints: readModels, producer, topicPrefix: prefix, contexts: { user: "identity" } });
    cleanups.push(async () => {
      await relay.stop();
      await producer.disconnect();
      await eventStore.close();
      await readModels.close();
      eventsDb.close();
      modelsDb.close();
    });

    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: `${prefix}.identity`, numPartitions: 3 }, { topic: `${prefix}.library`, numPartitions: 1 }] });
    await admin.disconnect();

    const meta = { correlationId: "c", actorId: "u" };
    await eventStore.append("user-1", [{ eventId: randomUUID(), type: "UserRegistered", schemaVersion: 1, data: {}, metadata: meta }], "no_stream");
    await relay.start();
    await eventStore.append("user-1", [{ eventId: randomUUID(), type: "EmailVerified", schemaVersion: 1, data: {}, metadata: meta }], 0);
    await eventStore.append("library-7", [{ eventId: randomUUID(), type: "DocumentUploaded", schemaVersion: 1, data: {}, metadata: meta }], "no_stream");

    const received: { topic: string; key: string; event: IntegrationEvent }[] = [];
    const consumer = new Kafka({ clientId: "contract", brokers, logLevel: logLevel.NOTHING }).consumer({ groupId: `${prefix}-group` });
    cleanups.push(() => consumer.disconnect());
    await consumer.connect();
    await consumer.subscribe({ topics: [`${prefix}.identity`, `${prefix}.library`], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        received.push({ topic, key: String(message.key), event: parseIntegrationMessage(message) });
      },
    });
    const deadline = Date.now() + 30_000;
    while (received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    const identity = received.filter((r) => r.topic === `${prefix}.identity`);
    expect(identity.map((r) => [r.key, r.event.type])).toEqual([
      ["user-1", "UserRegistered"],
      ["user-1", "EmailVerified"],
    ]);
    expect(received.filter((r) => r.topic === `${prefix}.library`).map((r) => r.event.type)).toEqual(["DocumentUploaded"]);
    expect(new Set(received.map((r) => r.event.eventId)).size).toBe(3);
  }, 120_000);
});
