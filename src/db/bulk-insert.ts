import { CompiledQuery } from 'kysely';
import { atLeastChars, copyRows, isCopyScalar } from './copy-in.js';
import { dialectOf } from './dialect.js';
import type { Executor } from './schema.js';

/**
 * PostgreSQL: rows that make at least this much text are written by `COPY`. Its gain is in the
 * text the server no longer parses as JSON; it costs a round trip more, and for narrow rows under
 * foreign keys it was slower: 1,000 rows of a text's variables (two ids each, 12 KB) took 9.2 ms by
 * `COPY` against 7.4 by the JSON insert, where 3,000 variant values (0.7 MB) and 1,000 rows of
 * the change log (0.8 MB) were faster by `COPY`.
 */
const COPY_MIN_CHARS = 64 * 1024;

/** Under SQLite's limit of 32,766 bound parameters per statement (PostgreSQL allows 65,535). */
const MAX_PARAMETERS = 30_000;

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * Inserts many rows of fixed columns with as few statements as the parameter limit allows. The
 * statement text is built here rather than through Kysely's insert builder, whose per-value
 * parsing costs more than the insert itself for thousands of rows (the change log of a batch
 * write). Table and column names come from our code; every value is a bound parameter.
 *
 * On PostgreSQL the rows are written by `COPY` (`copy-in.ts`), or, when the inserted rows' ids are
 * wanted back, travel as one JSON parameter read by `json_populate_recordset`, which gives each
 * value the type of its column: a statement of 10,000 placeholders took the server 20-30 ms to
 * parse and as long again to bind, per statement, before it inserted anything. Rows holding a
 * value neither carries as it is (bytes, objects) take the placeholders.
 */
export async function bulkInsert(
  executor: Executor,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  await bulkInsertReturning(executor, { table, columns, rows }, []);
}

/** Rows of fixed columns for one table, each row its values in the order of `columns`. */
export interface BulkRows {
  table: string;
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
}

/**
 * `bulkInsert` answering the `returning` columns of every inserted row, in no particular order
 * (neither database promises one for a multi-row insert).
 */
export async function bulkInsertReturning<R>(
  executor: Executor,
  insert: BulkRows,
  returning: readonly string[],
): Promise<R[]> {
  const { table, columns, rows } = insert;
  const out: R[] = [];
  if (rows.length === 0) return out;
  const postgres = dialectOf(executor) === 'postgres';
  if (postgres && returning.length === 0 && atLeastChars(rows, COPY_MIN_CHARS) && rows.every(isCopyRow)) {
    // The statement `copyingPool` (copy-in.ts) runs as a COPY, the rows as its one parameter.
    const copy = `copy ${quote(table)} (${columns.map(quote).join(', ')}) from stdin`;
    await executor.executeQuery(CompiledQuery.raw(copy, [copyRows(rows)]));
    return out;
  }
  if (postgres && rows.every(isJsonRow)) return insertFromJson<R>(executor, insert, returning);
  const head = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values `;
  const tail = returning.length > 0 ? ` returning ${returning.map(quote).join(', ')}` : '';
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const part = rows.slice(start, start + perStatement);
    const parameters = new Array<unknown>(part.length * columns.length);
    let next = 0;
    for (const row of part) {
      for (let column = 0; column < columns.length; column += 1) parameters[next++] = row[column];
    }
    const values = valueTuples(part.length, columns.length, postgres);
    const result = await executor.executeQuery<R>(CompiledQuery.raw(head + values + tail, parameters));
    if (tail) for (const row of result.rows) out.push(row);
  }
  return out;
}

const isCopyRow = (row: readonly unknown[]) => row.every(isCopyScalar);
const isJsonRow = (row: readonly unknown[]) => row.every((value) => isCopyScalar(value) || typeof value === 'boolean');

async function insertFromJson<R>(executor: Executor, insert: BulkRows, returning: readonly string[]): Promise<R[]> {
  const { table, columns, rows } = insert;
  const list = columns.map(quote).join(', ');
  const objects = rows.map((row) => {
    const object: Record<string, unknown> = {};
    for (let column = 0; column < columns.length; column += 1) object[columns[column] as string] = row[column] ?? null;
    return object;
  });
  const tail = returning.length > 0 ? ` returning ${returning.map(quote).join(', ')}` : '';
  const result = await executor.executeQuery<R>(
    CompiledQuery.raw(
      `insert into ${quote(table)} (${list}) select ${list} from json_populate_recordset(null::${quote(table)}, $1::json)${tail}`,
      [JSON.stringify(objects)],
    ),
  );
  return tail ? result.rows : [];
}

/** The `values` of `rows` tuples of `columns` parameters: `(?, ?), (?, ?)`, or `($1, $2), ($3, $4)` on PostgreSQL. */
function valueTuples(rows: number, columns: number, postgres: boolean): string {
  if (!postgres) return new Array(rows).fill(`(${new Array(columns).fill('?').join(', ')})`).join(', ');
  const tuples = new Array<string>(rows);
  for (let row = 0; row < rows; row += 1) {
    const slots = new Array<string>(columns);
    for (let column = 0; column < columns; column += 1) slots[column] = `$${row * columns + column + 1}`;
    tuples[row] = `(${slots.join(', ')})`;
  }
  return tuples.join(', ');
}

/** `bulkInsert` of rows given as objects that all have the first row's keys, in that order. */
export function bulkInsertObjects<R = never>(
  executor: Executor,
  table: string,
  rows: readonly object[],
  returning: readonly string[] = [],
): Promise<R[]> {
  const columns = rows[0] ? Object.keys(rows[0]) : [];
  const values = rows.map((row) => columns.map((column) => (row as Record<string, unknown>)[column]));
  return bulkInsertReturning<R>(executor, { table, columns, rows: values }, returning);
}
