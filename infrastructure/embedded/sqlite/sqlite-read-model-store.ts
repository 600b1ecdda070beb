import { AsyncLocalStorage } from "node:async_hooks";
import type Database from "better-sqlite3";
import type {
  Collection,
  FieldCondition,
  Filter,
  FindOptions,
  ReadModelDocument,
  ReadModelStore,
} from "#application/ports/read-model-store";

type Scalar = string | number | boolean | null;
type Bindable = string | number | null;

const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TABLE_PREFIX = "rm_";
/** Registered on the connection: Unicode-aware lower-casing (SQLite's lower() only folds ASCII). */
const CASEFOLD_FN = "rm_casefold";

function tableName(collection: string): string {
  if (!COLLECTION_NAME.test(collection)) throw new Error(`Invalid collection name: ${JSON.stringify(collection)}`);
  return TABLE_PREFIX + collection;
}

/** SQL for a top-level field; `id` is the primary-key column. Field names are validated, never values. */
function fieldExpr(field: string): string {
  if (!FIELD_NAME.test(field)) throw new Error(`Invalid field name: ${JSON.stringify(field)}`);
  return field === "id" ? "id" : `json_extract(doc, '$.${field}')`;
}

function jsonType(field: string): string {
  return field === "id" ? "'text'" : `json_type(doc, '$.${field}')`;
}

/** json_extract yields 1/0 for JSON booleans, so booleans bind as numbers for comparisons. */
function bindable(value: Scalar): Bindable {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

interface Compiled {
  sql: string;
  params: Bindable[];
}

/** Equality with Mongo-like typing: booleans only match JSON booleans, null matches null or missing. */
function equals(field: string, value: Scalar, params: Bindable[]): string {
  if (value === null) return `${fieldExpr(field)} IS NULL`;
  if (typeof value === "boolean") return `${jsonType(field)} = '${value ? "true" : "false"}'`;
  params.push(value);
  return `${fieldExpr(field)} = ?${typeGuard(field, value)}`;
}

/**
 * json_extract turns JSON true/false into 1/0 and arrays/objects into JSON
 * text, so a number or string comparison also checks the JSON type.
 */
function typeGuard(field: string, value: string | number): string {
  if (field === "id") return "";
  return typeof value === "number"
    ? ` AND ${jsonType(field)} IN ('integer', 'real')`
    : ` AND ${jsonType(field)} = 'text'`;
}

function compileCondition(field: string, condition: FieldCondition, params: Bindable[]): string[] {
  if (condition === null || typeof condition !== "object") return [equals(field, condition, params)];
  const expr = fieldExpr(field);
  const parts: string[] = [];
  for (const [op, value] of Object.entries(condition) as [string, unknown][]) {
    if (value === undefined) continue;
    switch (op) {
      case "$eq":
        parts.push(equals(field, value as Scalar, params));
        break;
      case "$ne":
        parts.push(`NOT coalesce(${equals(field, value as Scalar, params)}, 0)`);
        break;
      case "$in": {
        const values = value as Scalar[];
        parts.push(values.length === 0 ? "0" : `(${values.map((v) => equals(field, v, params)).join(" OR ")})`);
        break;
      }
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte": {
        const sqlOp = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" }[op];
        // Ordering against null has no meaning; nothing matches, as in MongoDB.
        if (value === null) parts.push("0");
        else if (typeof value === "boolean") {
          params.push(bindable(value));
          parts.push(`${expr} ${sqlOp} ? AND ${jsonType(field)} IN ('true', 'false')`);
        } else {
          params.push(value as string | number);
          parts.push(`${expr} ${sqlOp} ?${typeGuard(field, value as string | number)}`);
        }
        break;
      }
      case "$exists":
        parts.push(`${jsonType(field)} IS ${value ? "NOT NULL" : "NULL"}`);
        break;
      case "$icontains":
        params.push(String(value).toLowerCase());
        parts.push(`instr(${CASEFOLD_FN}(${expr}), ?) > 0`);
        break;
      default:
        throw new Error(`Unsupported filter operator ${op} on ${field}`);
    }
  }
  return parts;
}

function compileFilter<T>(filter: Filter<T> | undefined): Compiled {
  const params: Bindable[] = [];
  const parts: string[] = [];
  for (const [field, condition] of Object.entries(filter ?? {}) as [string, FieldCondition | undefined][]) {
    if (condition === undefined) continue;
    parts.push(...compileCondition(field, condition, params));
  }
  return { sql: parts.length ? `WHERE ${parts.map((p) => `(${p})`).join(" AND ")}` : "", params };
}

/**
 * Read models as JSON documents, one table per collection. better-sqlite3 is
 * synchronous but projector code is async, so a transaction stays open across
 * awaits: an async mutex makes every other operation on this store wait for it
 * instead of slipping into it, and AsyncLocalStorage lets calls made inside
 * the transaction (including nested transaction()) run directly.
 *
 * Ownership: the store does not own `db`; whoever opened it closes it. Give it
 * a connection of its own (not the event store's; ideally its own file).
 */
export class SqliteReadModelStore implements ReadModelStore {
  private readonly inTransaction = new AsyncLocalStorage<true>();
  private mutexTail: Promise<void> = Promise.resolve();
  private readonly knownTables = new Set<string>();
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;

  constructor(private readonly db: Database.Database) {
    db.function(CASEFOLD_FN, { deterministic: true }, (value: unknown) =>
      typeof value === "string" ? value.toLowerCase() : null,
    );
  }

  collection<T extends ReadModelDocument>(name: string): Collection<T> {
    return new SqliteCollection<T>(this, tableName(name));
  }

  /** @internal Runs fn alone on the connection, or directly when already inside this store's transaction. */
  async exclusive<R>(fn: () => R | Promise<R>): Promise<R> {
    if (this.closed) throw new Error("SqliteReadModelStore is closed");
    if (this.inTransaction.getStore()) return fn();
    const previous = this.mutexTail;
    let release!: () => void;
    this.mutexTail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** @internal Prepared statements are cached: SQLite re-prepares them itself after schema changes. */
  prepare<P extends unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as unknown as Database.Statement<P, R>;
  }

  /** @internal */
  get connection(): Database.Database {
    return this.db;
  }

  /** @internal Creates the collection's table on first use. */
  ensureTable(table: string): void {
    if (this.knownTables.has(table)) return;
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    this.knownTables.add(table);
  }

  async transaction<R>(fn: () => Promise<R>): Promise<R> {
    if (this.inTransaction.getStore()) return fn();
    return this.exclusive(async () => {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        const result = await this.inTransaction.run(true, fn);
        this.db.exec("COMMIT");
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        // Tables created inside the rolled-back transaction are gone again.
        this.knownTables.clear();
        throw error;
      }
    });
  }

  async dropCollections(prefix = ""): Promise<void> {
    await this.exclusive(() => {
      for (const table of this.tables()) {
        if (!table.slice(TABLE_PREFIX.length).startsWith(prefix)) continue;
        this.db.exec(`DROP TABLE IF EXISTS ${table}`);
        this.knownTables.delete(table);
      }
    });
  }

  async listCollections(): Promise<string[]> {
    return this.exclusive(() => this.tables().map((t) => t.slice(TABLE_PREFIX.length)));
  }

  private tables(): string[] {
    const rows = this.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all();
    // Filtered in JS: '_' is a LIKE wildcard.
    return rows.map((r) => r.name).filter((n) => n.startsWith(TABLE_PREFIX));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Let operations already queued finish first.
    await this.exclusive(() => undefined);
    this.closed = true;
  }
}

class SqliteCollection<T extends ReadModelDocument> implements Collection<T> {
  constructor(
    private readonly store: SqliteReadModelStore,
    private readonly table: string,
  ) {}

  private run<R>(fn: (db: SqliteReadModelStore) => R): Promise<R> {
    return this.store.exclusive(() => {
      this.store.ensureTable(this.table);
      return fn(this.store);
    });
  }

  get(id: string): Promise<T | null> {
    return this.run((db) => {
      const row = db.prepare<[string], { doc: string }>(`SELECT doc FROM ${this.table} WHERE id = ?`).get(id);
      return row ? (JSON.parse(row.doc) as T) : null;
    });
  }

  find(filter?: Filter<T>, options: FindOptions<T> = {}): Promise<T[]> {
    return this.run((db) => {
      const where = compileFilter(filter);
      const order = [...(options.sort ?? []).map((s) => `${fieldExpr(s.field)} ${s.direction === "desc" ? "DESC" : "ASC"}`)];
      // id breaks ties so paging is deterministic.
      if (!options.sort?.some((s) => s.field === "id")) order.push("id ASC");
      const params: Bindable[] = [...where.params];
      let sql = `SELECT doc FROM ${this.table} ${where.sql} ORDER BY ${order.join(", ")}`;
      if (options.limit !== undefined || options.offset !== undefined) {
        sql += " LIMIT ? OFFSET ?";
        params.push(options.limit ?? -1, options.offset ?? 0);
      }
      return db
        .prepare<Bindable[], { doc: string }>(sql)
        .all(...params)
        .map((row) => JSON.parse(row.doc) as T);
    });
  }

  async findOne(filter: Filter<T>): Promise<T | null> {
    const [first] = await this.find(filter, { limit: 1 });
    return first ?? null;
  }

  count(filter?: Filter<T>): Promise<number> {
    return this.run((db) => {
      const where = compileFilter(filter);
      const row = db.prepare<Bindable[], { n: number }>(`SELECT COUNT(*) AS n FROM ${this.table} ${where.sql}`).get(...where.params);
      return row?.n ?? 0;
    });
  }

  upsert(document: T): Promise<void> {
    return this.run((db) => {
      db.prepare<[string, string]>(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`).run(
        document.id,
        JSON.stringify(document),
      );
    });
  }

  patch(id: string, fields: Partial<Omit<T, "id">>): Promise<void> {
    // Read-merge-write is atomic: it runs synchronously under the store's mutex.
    return this.run((db) => {
      const row = db.prepare<[string], { doc: string }>(`SELECT doc FROM ${this.table} WHERE id = ?`).get(id);
      if (!row) return;
      const merged = { ...(JSON.parse(row.doc) as T), ...fields, id };
      db.prepare<[string, string]>(`UPDATE ${this.table} SET doc = ? WHERE id = ?`).run(JSON.stringify(merged), id);
    });
  }

  delete(id: string): Promise<void> {
    return this.run((db) => {
      db.prepare<[string]>(`DELETE FROM ${this.table} WHERE id = ?`).run(id);
    });
  }

  deleteMany(filter: Filter<T>): Promise<number> {
    return this.run((db) => {
      const where = compileFilter(filter);
      return db.prepare<Bindable[]>(`DELETE FROM ${this.table} ${where.sql}`).run(...where.params).changes;
    });
  }

  ensureIndex(fields: (keyof T & string)[], options: { unique?: boolean } = {}): Promise<void> {
    return this.run((db) => {
      if (fields.length === 0) throw new Error("ensureIndex needs at least one field");
      const exprs = fields.map(fieldExpr);
      const name = `${this.table}__${fields.join("__")}${options.unique ? "__unique" : ""}`;
      db.connection.exec(`CREATE ${options.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS ${name} ON ${this.table} (${exprs.join(", ")})`);
    });
  }
}
