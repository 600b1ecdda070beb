/**
 * The read-model store port: document collections that projectors write and
 * queries read. Embedded: SQLite (JSON documents); production: MongoDB.
 * Every adapter passes tests/contracts/read-model-store.contract.ts.
 */

export interface ReadModelDocument {
  id: string;
}

type Scalar = string | number | boolean | null;

/** A small, Mongo-shaped filter language that both SQLite and MongoDB can execute. */
export type FieldCondition =
  | Scalar
  | { $eq?: Scalar; $ne?: Scalar; $in?: Scalar[]; $gt?: Scalar; $gte?: Scalar; $lt?: Scalar; $lte?: Scalar; $exists?: boolean }
  /** Case-insensitive "contains" on a string field (search by part of a name). */
  | { $icontains: string };

export type Filter<T> = { [K in keyof T]?: FieldCondition };

export interface FindOptions<T> {
  sort?: { field: keyof T & string; direction: "asc" | "desc" }[];
  limit?: number;
  offset?: number;
}

export interface Collection<T extends ReadModelDocument> {
  get(id: string): Promise<T | null>;
  find(filter?: Filter<T>, options?: FindOptions<T>): Promise<T[]>;
  findOne(filter: Filter<T>): Promise<T | null>;
  count(filter?: Filter<T>): Promise<number>;
  /** Replaces the whole document (insert when missing). */
  upsert(document: T): Promise<void>;
  /** Shallow-merges fields into an existing document; no-op when missing. */
  patch(id: string, fields: Partial<Omit<T, "id">>): Promise<void>;
  delete(id: string): Promise<void>;
  deleteMany(filter: Filter<T>): Promise<number>;
  /** Declares an index on top-level fields; idempotent. Projections call it at start. */
  ensureIndex(fields: (keyof T & string)[], options?: { unique?: boolean }): Promise<void>;
}

export interface ReadModelStore {
  collection<T extends ReadModelDocument>(name: string): Collection<T>;
  /**
   * Runs fn so that its writes commit together where the store supports it
   * (SQLite). Projector writes and the checkpoint update go through here.
   */
  transaction<R>(fn: () => Promise<R>): Promise<R>;
  /** Drops every collection whose name starts with prefix (used by rebuilds into fresh models). */
  dropCollections(prefix?: string): Promise<void>;
  listCollections(): Promise<string[]>;
  close(): Promise<void>;
}
