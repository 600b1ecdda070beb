import "reflect-metadata";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { DevMailbox } from "#application/ports/mailer";
import type { EventStore } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { IdentityQueries } from "#application/identity/identity-queries";
import { IdentityService } from "#application/identity/identity-service";
import { loadConfig } from "#infrastructure/config/config";
import { createRuntime } from "#infrastructure/container";
import { ProjectionRunner, rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { ScryptPasswordHasher } from "#infrastructure/security/scrypt-password-hasher";
import { allProjectors } from "#projections/index";
import pino from "pino";
import { createTestRuntime } from "../support/test-runtime";

const ctx = { requestId: "r", clientAddress: "127.0.0.1" };
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function signUp(identity: IdentityService, mailbox: DevMailbox, username: string) {
  const { userId } = await identity.register({ username, email: `${username}@example.com`, password: "Secret12!" }, ctx);
  const code = /\d{6}/.exec((await mailbox.list(1))[0].text)![0];
  await identity.confirmSignup({ username, code }, ctx);
  return userId;
}

async function snapshot(store: ReadModelStore) {
  const out: Record<string, unknown[]> = {};
  for (const projector of allProjectors) {
    for (const name of projector.collections) out[name] = await store.collection(name).find({}, { sort: [{ field: "id", direction: "asc" }] });
  }
  return out;
}

describe("identity read models", () => {
  it("are rebuilt from position 0 into exactly what the live run built", async () => {
    const env = await createTestRuntime();
    cleanups.push(env.cleanup);
    const identity = env.runtime.container.get(IdentityService);
    const mailbox = env.runtime.get<DevMailbox>(TOKENS.DevMailbox);
    for (const name of ["alice", "bob", "carol"]) {
      const userId = await signUp(identity, mailbox, name);
      env.clock.advance(1000);
      const { token } = await identity.startSession(userId, ctx);
      if (name === "bob") await identity.endSession(token, ctx);
    }
    const eventStore = env.runtime.get<EventStore>(TOKENS.EventStore);
    await env.runtime.get<ProjectionRunner>(TOKENS.ProjectionRunner).waitForPosition(await eventStore.headPosition());
    const live = await snapshot(env.runtime.get<ReadModelStore>(TOKENS.ReadModelStore));

    const fresh = new SqliteReadModelStore(new Database(":memory:"));
    await rebuildProjections(eventStore, fresh, allProjectors);
    expect(await snapshot(fresh)).toEqual(live);
    expect(live.identity_users).toHaveLength(3);
  });

  it("catch up after a crash between the append and the projection, losing no event", async () => {
    const first = await createTestRuntime();
    const runner = first.runtime.get<ProjectionRunner>(TOKENS.ProjectionRunner);
    const identity = first.runtime.container.get(IdentityService);
    // Projections stop, the appends go on: the state a crash right after an append leaves behind.
    await runner.stop();
    const { userId } = await identity.register({ username: "dave", email: "dave@example.com", password: "Secret12!" }, ctx);
    expect(await first.runtime.container.get(IdentityQueries).currentUser(userId, null)).toBeNull();
    await first.runtime.stop();

    const restarted = await createRuntime(loadConfig({ DATA_DIR: first.dataDir, APP_SECRET: "test-secret-test-secret-test-secret!" }), {
      logger: pino({ level: "silent" }),
      passwordHasher: new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
    });
    cleanups.push(async () => {
      await restarted.stop();
    });
    const head = await restarted.get<EventStore>(TOKENS.EventStore).headPosition();
    expect(await restarted.get<ProjectionRunner>(TOKENS.ProjectionRunner).waitForPosition(head)).toBe(true);
    expect(await restarted.container.get(IdentityQueries).currentUser(userId, null)).toMatchObject({ username: "dave", status: "" });
  });
});
