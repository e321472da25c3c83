import { type Compilable, CompiledQuery, type Kysely } from 'kysely';

/**
 * Reads that may run straight on the SQLite connection, skipping Kysely's asynchronous connection
 * hand-off. Registered by `openDatabase` for its root Kysely instance only (never a transaction).
 */
export interface SyncReader {
  /** False while a transaction holds the connection: then the read must queue behind it. */
  available(): boolean;
  all(sql: string, parameters: readonly unknown[]): unknown[];
}

const syncReaders = new WeakMap<object, SyncReader>();

export function registerSyncReader(db: Kysely<any>, reader: SyncReader): void {
  syncReaders.set(db, reader);
}

/**
 * Building and compiling a Kysely query costs more than running a small indexed query. For the
 * few queries on every request's path, the query is compiled once with marker values and later
 * run with the markers swapped for the real values: still bound parameters, never spliced SQL.
 * On SQLite, outside a transaction, it runs synchronously on the connection's cached statement.
 */
export function preparedQuery<Db, Args extends Record<string, unknown>, Row>(
  build: (db: Kysely<Db>, marker: <K extends keyof Args & string>(name: K) => Args[K]) => Compilable<Row>,
): (db: Kysely<Db>, args: Args) => Promise<Row[]> {
  const compiled = new WeakMap<Kysely<Db>, { query: CompiledQuery<Row>; slots: (keyof Args | null)[] }>();
  const markerPrefix = `\u0000copydesk-marker:`;
  return async (db, args) => {
    let entry = compiled.get(db);
    if (!entry) {
      const query = build(db, (name) => `${markerPrefix}${name}` as never).compile();
      const slots = query.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(markerPrefix) ? (p.slice(markerPrefix.length) as keyof Args) : null,
      );
      entry = { query, slots };
      compiled.set(db, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((p, i) => {
      const slot = slots[i];
      return slot === null || slot === undefined ? p : args[slot];
    });
    const reader = syncReaders.get(db);
    if (reader?.available()) return reader.all(query.sql, parameters) as Row[];
    const result = await db.executeQuery<Row>(CompiledQuery.raw(query.sql, parameters));
    return result.rows;
  };
}
