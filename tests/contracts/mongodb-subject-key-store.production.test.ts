import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { MongoReadModelStore } from "#infrastructure/production/mongodb-read-model-store";
import { MongoSubjectKeyStore, SUBJECT_KEYS_COLLECTION } from "#infrastructure/production/mongodb-subject-key-store";
import { SqliteSubjectKeyStore } from "#infrastructure/security/sqlite-subject-key-store";
import { serverFor, useServer } from "../support/server-availability";
import { CONTRACT_APP_SECRET, subjectKeyStoreContract } from "./subject-key-store.contract";

/** The subject-key contract of the runtime.db store, run against MongoDB (MONGODB_URL or Testcontainers). */
const plan = await serverFor("mongodb");
// Its own database: the rebuild test drops every read-model collection in it, which must not hit the read-model suite running beside it.
const DATABASE = "docuchat_contract_keys";

describe.skipIf(plan.skip !== undefined)(`MongoDB subject keys (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;
  const connect = async () => {
    if (!server) throw new Error("unreachable: the suite is skipped without a server");
    return MongoClient.connect(server().url);
  };

  subjectKeyStoreContract("MongoDB", async () => {
    // One client per open(), as separate processes would have.
    const clients: MongoClient[] = [];
    return {
      open: async (appSecret) => {
        const client = await connect();
        clients.push(client);
        return new MongoSubjectKeyStore(client.db(DATABASE), appSecret);
      },
      cleanup: async () => {
        for (const client of clients) await client.close();
      },
    };
  });

  it("stores keys wrapped, one document per subject under its id", async () => {
    const client = await connect();
    try {
      const subject = `wrapped-${Date.now()}`;
      const key = await new MongoSubjectKeyStore(client.db(DATABASE), CONTRACT_APP_SECRET).keyFor(subject, { create: true });
      const docs = await client.db(DATABASE).collection(SUBJECT_KEYS_COLLECTION).find({ _id: subject as never }).toArray();
      expect(docs).toHaveLength(1);
      expect(docs[0].wrappedKey).toMatch(/^v1\./);
      expect(docs[0].wrappedKey).not.toContain(key!.toString("base64url"));
      expect(docs[0].createdAt).toBeInstanceOf(Date);
    } finally {
      await client.close();
    }
  });

  it("is out of the read models' reach: not listed, and kept through a rebuild's drops", async () => {
    const client = await connect();
    try {
      const subject = `rebuild-${Date.now()}`;
      const keys = new MongoSubjectKeyStore(client.db(DATABASE), CONTRACT_APP_SECRET, { cacheMs: 0 });
      const key = await keys.keyFor(subject, { create: true });
      const readModels = new MongoReadModelStore(client, { database: DATABASE });
      expect(await readModels.listCollections()).not.toContain(SUBJECT_KEYS_COLLECTION);
      await readModels.dropCollections("");
      expect(await keys.keyFor(subject, { create: false })).toEqual(key);
    } finally {
      await client.close();
    }
  });

  it("takes over an installation's runtime.db keys as they are, once, and never brings a forgotten one back", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "docuchat-keys-"));
    const client = await connect();
    const db = openDatabase(path.join(dir, "runtime.db"));
    try {
      const local = new SqliteSubjectKeyStore(db, CONTRACT_APP_SECRET);
      const subjects = Array.from({ length: 3 }, (_, i) => `moved-${Date.now()}-${i}`);
      const keys = await Promise.all(subjects.map((s) => local.keyFor(s, { create: true })));
      const mongo = new MongoSubjectKeyStore(client.db(DATABASE), CONTRACT_APP_SECRET, { cacheMs: 0 });
      expect(await local.moveTo(mongo)).toEqual({ moved: 3, kept: [] });
      for (const [i, s] of subjects.entries()) expect(await mongo.keyFor(s, { create: false })).toEqual(keys[i]);
      await mongo.forget(subjects[0]);
      expect(await local.moveTo(mongo)).toEqual({ moved: 0, kept: [] });
      expect(await mongo.keyFor(subjects[0], { create: false })).toBeNull();
    } finally {
      db.close();
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
