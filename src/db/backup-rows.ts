import { sql } from 'kysely';
import { bulkInsert } from './bulk-insert.js';
import type { Executor } from './schema.js';

/**
 * The row-level tools of backup and restore, shared by the modules that own the tables. Table and
 * column names always come from the calling module's code, never from a backup file; every value
 * is a bound parameter.
 */

/** One row as a backup file holds it: column name -> value, as stored. */
export type BackupRow = Record<string, unknown>;

/** Row id in the file -> row id in this database, per table. */
export type IdMap = Map<number, number>;

/** The id maps restore builds table by table: a module restores after the modules it refers to. */
export interface IdMaps {
  workspaceId: number;
  users: IdMap;
  variants: IdMap;
  variables: IdMap;
  folders: IdMap;
  projects: IdMap;
  blocks: IdMap;
  texts: IdMap;
  styleguides: IdMap;
  sections: IdMap;
}

/** `rows` in id order (creation order), with only the named columns. */
export async function selectRows(
  executor: Executor,
  table: string,
  columns: readonly string[],
  where: { column: string; in: readonly number[] },
): Promise<BackupRow[]> {
  if (where.in.length === 0) return [];
  const out: BackupRow[] = [];
  for (let i = 0; i < where.in.length; i += 1000) {
    const part = where.in.slice(i, i + 1000);
    const { rows } = await sql<BackupRow>`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}
      where ${sql.ref(where.column)} in (${sql.join(part)})`.execute(executor);
    out.push(...rows);
  }
  const key = columns.includes('id') ? 'id' : columns[0];
  return out.sort((a, b) => Number(a[key as string]) - Number(b[key as string]));
}

/**
 * Inserts `rows` in their order (so new ids keep the file's order) and answers file id -> new id,
 * matched back through the table's natural key (`keyColumns`, unique within `scope`).
 */
export async function insertRows(
  executor: Executor,
  table: string,
  columns: readonly string[],
  rows: readonly BackupRow[],
  match?: { keyColumns: readonly string[]; scope: { column: string; in: readonly number[] } },
): Promise<IdMap> {
  await bulkInsert(
    executor,
    table,
    columns,
    rows.map((row) => columns.map((c) => row[c] ?? null)),
  );
  const ids: IdMap = new Map();
  if (!match || rows.length === 0) return ids;
  const keyOf = (row: BackupRow) => JSON.stringify(match.keyColumns.map((c) => String(row[c])));
  const stored = await selectRows(executor, table, ['id', ...match.keyColumns], match.scope);
  const byKey = new Map(stored.map((row) => [keyOf(row), Number(row.id)]));
  for (const row of rows) {
    const id = byKey.get(keyOf(row));
    if (id === undefined) throw new Error(`restore: a ${table} row was not stored`);
    ids.set(Number(row.id), id);
  }
  return ids;
}

/** The new id of a reference, null staying null; a reference to nothing in the file is dropped. */
export const mapId = (ids: IdMap, value: unknown): number | null =>
  value === null || value === undefined ? null : (ids.get(Number(value)) ?? null);

/** Sets `column` of each row (by new id) to a value: the references a table makes to itself. */
export async function updateColumn(
  executor: Executor,
  table: string,
  column: string,
  values: readonly [id: number, value: number][],
): Promise<void> {
  for (const [id, value] of values) {
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${value} where id = ${id}`.execute(executor);
  }
}
