import { CompiledQuery } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Executor } from './schema.js';

/** Under SQLite's limit of 32,766 bound parameters per statement (PostgreSQL allows 65,535). */
const MAX_PARAMETERS = 30_000;

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * Inserts many rows of fixed columns with as few statements as the parameter limit allows. The
 * statement text is built here rather than through Kysely's insert builder, whose per-value
 * parsing costs more than the insert itself for thousands of rows (the change log of a batch
 * write). Table and column names come from our code; every value is a bound parameter.
 */
export async function bulkInsert(
  executor: Executor,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const postgres = dialectOf(executor) === 'postgres';
  const head = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values `;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const part = rows.slice(start, start + perStatement);
    const parameters: unknown[] = [];
    const tuples = part.map((row) => {
      const slots = row.map((value) => {
        parameters.push(value);
        return postgres ? `$${parameters.length}` : '?';
      });
      return `(${slots.join(', ')})`;
    });
    await executor.executeQuery(CompiledQuery.raw(head + tuples.join(', '), parameters));
  }
}
