import { AsyncLocalStorage } from "node:async_hooks";
import type {
  ClientSession,
  Collection as MongoCollection,
  Db,
  Document,
  Filter as MongoFilter,
  MongoClient,
  WithoutId,
  Sort,
} from "mongodb";
import type {
  Collection,
  FieldCondition,
  Filter,
  FindOptions,
  ReadModelDocument,
  ReadModelStore,
} from "#application/ports/read-model-store";

type Scalar = string | number | boolean | null;

/** A read-model document as stored: the id as a string _id. */
interface StoredDocument {
  _id: string;
  [field: string]: unknown;
}

const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Matches no document: every stored document has an _id. */
const NOTHING: Document = { _id: { $exists: false } };

function collectionName(name: string): string {
  if (!COLLECTION_NAME.test(name)) throw new Error(`Invalid collection name: ${JSON.stringify(name)}`);
  return name;
}

/** Top-level field names only; `id` is stored as Mongo's _id. Names are validated so `$where` & co cannot get in. */
function fieldPath(field: string): string {
  if (!FIELD_NAME.test(field)) throw new Error(`Invalid field name: ${JSON.stringify(field)}`);
  return field === "id" ? "_id" : field;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Values stay values: a string such as "$gt" is compared with $eq, never read as an operator. */
function compileCondition(condition: FieldCondition): Document[] {
  if (condition === null || typeof condition !== "object") return [{ $eq: condition }];
  const parts: Document[] = [];
  for (const [op, value] of Object.entries(condition) as [string, unknown][]) {
    if (value === undefined) continue;
    switch (op) {
      case "$eq":
      case "$ne":
        parts.push({ [op]: value as Scalar });
        break;
      case "$in":
        parts.push({ $in: value as Scalar[] });
        break;
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte":
        // Ordering against null means nothing (the SQLite adapter agrees); Mongo's $gte: null would match missing fields.
        parts.push(value === null ? { $in: [] } : { [op]: value as Scalar });
        break;
      case "$exists":
        parts.push({ $exists: Boolean(value) });
        break;
      case "$icontains":
        parts.push({ $regex: escapeRegex(String(value)), $options: "i" });
        break;
      default:
        throw new Error(`Unsupported filter operator ${op}`);
    }
  }
  return parts;
}

export function compileMongoFilter<T>(filter: Filter<T> | undefined): MongoFilter<StoredDocument> {
  const clauses: Document[] = [];
  for (const [field, condition] of Object.entries(filter ?? {}) as [string, FieldCondition | undefined][]) {
    if (condition === undefined) continue;
    const path = fieldPath(field);
    for (const part of compileCondition(condition)) clauses.push({ [path]: part });
  }
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? clauses[0] : { $and: clauses };
}

function fromStored<T>(doc: Document | null): T | null {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  return { ...rest, id: _id as string } as T;
}

/** The database the read models use: the one named, else the connection string's, else "docuchat" (never the driver's "test"). */
export function readModelDatabase(client: MongoClient, name?: string): Db {
  if (name) return client.db(name);
  const db = client.db();
  return db.databaseName === "test" ? client.db("docuchat") : db;
}

export interface MongoReadModelStoreOptions {
  /** Database name; default: the one in the connection string, else "docuchat". */
  database?: string;
}

/**
 * The read-model port on MongoDB (ARCHITECTURE §4, `MONGODB_URL`). One Mongo
 * collection per read-model collection, the document id as `_id`.
 *
 * - Upserts are `replaceOne(..., { upsert: true })`: replaying an event writes
 *   the same document again (idempotent projectors).
 * - `ensureIndex` creates the projection's declared index (named after its
 *   fields, so declaring it again is a no-op). Unique indexes ignore documents
 *   where a field is missing or null, as SQLite's unique indexes do.
 * - `transaction` runs in a multi-document transaction; MongoDB needs a replica
 *   set for that (docker/ starts a single-node one). Operations inside it find
 *   their session through AsyncLocalStorage, like the SQLite adapter.
 */
export class MongoReadModelStore implements ReadModelStore {
  private readonly session = new AsyncLocalStorage<ClientSession>();
  private readonly db: Db;
  private closed = false;

  constructor(
    private readonly client: MongoClient,
    options: MongoReadModelStoreOptions = {},
    private readonly ownsClient = false,
  ) {
    this.db = readModelDatabase(client, options.database);
  }

  static async connect(url: string, options: MongoReadModelStoreOptions = {}): Promise<MongoReadModelStore> {
    // The driver is imported here, not with the server bundle: an installation without MongoDB never loads it (decision 253).
    const client = new (await import("mongodb")).MongoClient(url);
    await client.connect();
    return new MongoReadModelStore(client, options, true);
  }

  get databaseName(): string {
    return this.db.databaseName;
  }

  collection<T extends ReadModelDocument>(name: string): Collection<T> {
    return new MongoReadModelCollection<T>(this, this.db.collection<StoredDocument>(collectionName(name)));
  }

  /** @internal The session of the transaction in progress, if any. */
  currentSession(): ClientSession | undefined {
    this.assertOpen();
    return this.session.getStore();
  }

  async transaction<R>(fn: () => Promise<R>): Promise<R> {
    this.assertOpen();
    if (this.session.getStore()) return fn();
    const session = this.client.startSession();
    try {
      // Default read concern: collections a projector creates on first write may be created inside the transaction.
      session.startTransaction({ writeConcern: { w: "majority" } });
      let result: R;
      try {
        result = await this.session.run(session, fn);
      } catch (error) {
        if (session.inTransaction()) await session.abortTransaction();
        throw error;
      }
      await session.commitTransaction();
      return result;
    } finally {
      await session.endSession();
    }
  }

  async dropCollections(prefix = ""): Promise<void> {
    for (const name of await this.listCollections()) {
      if (name.startsWith(prefix)) await this.db.dropCollection(name).catch(ignoreNamespaceNotFound);
    }
  }

  async listCollections(): Promise<string[]> {
    this.assertOpen();
    const infos = await this.db.listCollections({}, { nameOnly: true }).toArray();
    return infos
      .map((c) => c.name)
      .filter((n) => COLLECTION_NAME.test(n))
      .sort();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsClient) await this.client.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("MongoReadModelStore is closed");
  }
}

function ignoreNamespaceNotFound(error: unknown): void {
  if ((error as { codeName?: string }).codeName === "NamespaceNotFound") return;
  throw error;
}

class MongoReadModelCollection<T extends ReadModelDocument> implements Collection<T> {
  constructor(
    private readonly store: MongoReadModelStore,
    private readonly coll: MongoCollection<StoredDocument>,
  ) {}

  private get opts(): { session?: ClientSession } {
    const session = this.store.currentSession();
    return session ? { session } : {};
  }

  async get(id: string): Promise<T | null> {
    return fromStored<T>(await this.coll.findOne({ _id: id }, this.opts));
  }

  async find(filter?: Filter<T>, options: FindOptions<T> = {}): Promise<T[]> {
    const sort: Sort = {};
    const spec = sort as Record<string, 1 | -1>;
    for (const s of options.sort ?? []) spec[fieldPath(s.field)] = s.direction === "desc" ? -1 : 1;
    // _id breaks ties so paging is deterministic.
    if (!("_id" in spec)) spec._id = 1;
    let cursor = this.coll.find(compileMongoFilter(filter), { ...this.opts, sort });
    if (options.offset) cursor = cursor.skip(options.offset);
    if (options.limit !== undefined) {
      if (options.limit <= 0) return [];
      cursor = cursor.limit(options.limit);
    }
    const docs = await cursor.toArray();
    return docs.map((d) => fromStored<T>(d) as T);
  }

  async findOne(filter: Filter<T>): Promise<T | null> {
    const [first] = await this.find(filter, { limit: 1 });
    return first ?? null;
  }

  count(filter?: Filter<T>): Promise<number> {
    return this.coll.countDocuments(compileMongoFilter(filter), this.opts);
  }

  async upsert(document: T): Promise<void> {
    const { id, ...fields } = document;
    await this.coll.replaceOne({ _id: id }, fields as WithoutId<StoredDocument>, { ...this.opts, upsert: true });
  }

  async patch(id: string, fields: Partial<Omit<T, "id">>): Promise<void> {
    const set: Document = {};
    const unset: Document = {};
    for (const [key, value] of Object.entries(fields) as [string, unknown][]) {
      if (key === "id" || key === "_id") continue;
      fieldPath(key);
      // A field patched to undefined disappears, as it does from the SQLite adapter's JSON.
      if (value === undefined) unset[key] = "";
      else set[key] = value;
    }
    const update: Document = {};
    if (Object.keys(set).length) update.$set = set;
    if (Object.keys(unset).length) update.$unset = unset;
    if (Object.keys(update).length === 0) return;
    await this.coll.updateOne({ _id: id }, update, this.opts);
  }

  async delete(id: string): Promise<void> {
    await this.coll.deleteOne({ _id: id }, this.opts);
  }

  async deleteMany(filter: Filter<T>): Promise<number> {
    const result = await this.coll.deleteMany(compileMongoFilter(filter), this.opts);
    return result.deletedCount;
  }

  async ensureIndex(fields: (keyof T & string)[], options: { unique?: boolean } = {}): Promise<void> {
    if (fields.length === 0) throw new Error("ensureIndex needs at least one field");
    const keys: Record<string, 1> = {};
    for (const field of fields) keys[fieldPath(field)] = 1;
    const name = `${fields.join("__")}${options.unique ? "__unique" : ""}`;
    if (options.unique) {
      const present: Document = {};
      for (const field of fields) present[fieldPath(field)] = { $type: ["string", "number", "bool", "date", "object", "array"] };
      await this.coll.createIndex(keys, { name, unique: true, partialFilterExpression: present });
    } else {
      await this.coll.createIndex(keys, { name });
    }
  }
}
