import { createRequire } from 'node:module';
import { finished } from 'node:stream/promises';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type PgModule from 'pg';
import type * as CopyStreams from 'pg-copy-streams';

/**
 * PostgreSQL's `COPY ... FROM STDIN` through Kysely, for the bulk inserts of batch writes.
 *
 * An `INSERT ... SELECT` inserts its rows one by one, and ours first parsed them out of one JSON
 * parameter; `COPY` reads rows in PostgreSQL's own text format and writes them to the table's
 * pages in batches. For the change log of a batch create of 1,000 texts (about 0.8 MB) the
 * statement took 5.8 ms against 11 to 12 (`psql`'s `\copy` against the JSON insert, 27 November
 * 2026, docs/history.md "What a write costs").
 *
 * Kysely knows nothing of COPY, so the pool it is given hands out clients whose `query` runs a
 * statement `copy <table> (<columns>) from stdin` with its one parameter, the rows as text
 * (`copyRows`), through `pg-copy-streams` on the same connection, hence in the same transaction;
 * every other statement goes to `pg` as before. A row PostgreSQL refuses fails the statement, and
 * with it the transaction, with the database's error (its `code` included), as an insert would.
 */
const COPY_FROM_STDIN = /^copy\s[^;]+\sfrom\s+stdin$/i;

/**
 * Whether `value` can be written in COPY's text format as it is (what `copyRows` takes). Not a
 * boolean: COPY would write `t` or `f` where the JSON insert wrote `true`, and no column we
 * insert in bulk holds one.
 */
export const isCopyScalar = (value: unknown) =>
  value === null ||
  value === undefined ||
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value));

/** Whether `rows` make at least `chars` characters of text (counting 8 for any other value), without building it. */
export function atLeastChars(rows: readonly (readonly unknown[])[], chars: number): boolean {
  let size = 0;
  for (const row of rows) {
    for (const value of row) size += typeof value === 'string' ? value.length + 1 : 8;
    if (size >= chars) return true;
  }
  return false;
}

const SPECIAL = /[\\\n\r\t]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function field(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string')
    return SPECIAL.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c] as string) : value;
  return String(value);
}

/** Rows of `isCopyScalar` values in COPY's text format: tab between values, a line per row, `\N` for null. */
export function copyRows(rows: readonly (readonly unknown[])[]): string {
  const lines = new Array<string>(rows.length);
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as readonly unknown[];
    let line = field(row[0]);
    for (let column = 1; column < row.length; column += 1) line += `\t${field(row[column])}`;
    lines[index] = line;
  }
  return `${lines.join('\n')}\n`;
}

/** `pool` as Kysely's PostgreSQL dialect takes it, with `copy ... from stdin` statements run as COPY. */
export function copyingPool(pool: PgModule.Pool): PostgresPool {
  // Loaded with `pg` itself: a server on SQLite never needs either.
  const { from } = createRequire(import.meta.url)('pg-copy-streams') as typeof CopyStreams;
  const clients = new WeakMap<PgModule.PoolClient, PostgresPoolClient>();

  async function copyIn(client: PgModule.PoolClient, statement: string, data: unknown) {
    if (typeof data !== 'string') throw new TypeError('a COPY statement takes its rows as one text parameter');
    const stream = client.query(from(statement));
    stream.end(data);
    await finished(stream);
    return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
  }

  const wrap = (client: PgModule.PoolClient): PostgresPoolClient => {
    let wrapped = clients.get(client);
    if (wrapped === undefined) {
      const query = (sql: unknown, parameters?: readonly unknown[]) => {
        if (typeof sql === 'string' && COPY_FROM_STDIN.test(sql)) return copyIn(client, sql, parameters?.[0]);
        // A cursor (one argument), or a statement and its parameters.
        return parameters === undefined ? client.query(sql as never) : client.query(sql as string, [...parameters]);
      };
      wrapped = { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
      clients.set(client, wrapped);
    }
    return wrapped;
  };

  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
