import { sql } from 'kysely';
import { badRequest } from '../http/errors.js';
import { type Columns, checkColumns, rowError } from './backup-check.js';
import type { BackupRow, IdMap } from './backup-types.js';
import { bulkInsert, bulkInsertReturning } from './bulk-insert.js';
import type { Executor } from './schema.js';

/**
 * The row-level tools of backup and restore, shared by the modules that own the tables. Table and
 * column names always come from the calling module's code, never from a backup file; every value
 * is a bound parameter. Everything here works a page at a time, so that a backup or restore of a
 * workspace of any size holds one page of rows and the id maps, never a whole table.
 */

export type { BackupRow, IdMap };

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
  comments: IdMap;
  suggestions: IdMap;
  mtProviders: IdMap;
  mtJobs: IdMap;
  /** The workflow's status keys, read from the file before any text. */
  statuses: Set<string>;
}

/** Rows read and written per statement. */
export const PAGE_SIZE = 2000;

/** Where a table's rows are and how they are paged. */
export interface DumpSpec {
  table: string;
  columns: readonly string[];
  /** The integer columns the rows are ordered and paged by (keyset pagination). */
  keys: readonly string[];
  /** A table without `workspace_id` belongs to the workspace through its parent: `text_id` -> `texts`. */
  via?: { column: string; table: string };
}

/** The workspace's rows of a table in key order, a page at a time (keyset: never an offset). */
export async function* pageRows(
  executor: Executor,
  spec: DumpSpec,
  workspaceId: number,
  columns: readonly string[] = spec.columns,
): AsyncGenerator<BackupRow[]> {
  const own = (column: string) => sql.ref(`x.${column}`);
  // Both databases would take the rows through an index on the workspace and sort the whole
  // table for every page; `+` keeps them off it, so a page is a range of the primary key.
  const scope = sql`+`;
  const from = spec.via
    ? sql`${sql.table(spec.table)} as x join ${sql.table(spec.via.table)} as p on p.id = ${own(spec.via.column)}
      where ${scope}p.workspace_id = ${workspaceId}`
    : sql`${sql.table(spec.table)} as x where ${scope}x.workspace_id = ${workspaceId}`;
  const keys = sql.join(spec.keys.map(own));
  let after: unknown[] | undefined;
  // Through a parent, the page's range goes on the parent's key as well: PostgreSQL does not carry
  // a row comparison over the join, and would walk the parent's key from its start for every page
  // (52 s a page of variant values at 1,000,000 texts; 37 ms with the range).
  const parentRange = spec.via !== undefined && spec.keys[0] === spec.via.column;
  for (;;) {
    const more = after
      ? sql`and (${keys}) > (${sql.join(after)}) ${parentRange ? sql`and p.id >= ${after[0]}` : sql``}`
      : sql``;
    const { rows } = await sql<BackupRow>`select ${sql.join(columns.map(own))} from ${from} ${more}
      order by ${keys} limit ${PAGE_SIZE}`.execute(executor);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < PAGE_SIZE) return;
    const last = rows[rows.length - 1] as BackupRow;
    after = spec.keys.map((key) => last[key]);
  }
}

/** Every row of a small table (a workspace's statuses or keys), with only the named columns. */
export async function selectRows(
  executor: Executor,
  table: string,
  columns: readonly string[],
  where: { column: string; equals: number },
): Promise<BackupRow[]> {
  const { rows } = await sql<BackupRow>`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}
    where ${sql.ref(where.column)} = ${where.equals}`.execute(executor);
  return rows;
}

/** Inserts a page of rows in their order, answering nothing. */
export async function insertRows(
  executor: Executor,
  table: string,
  columns: readonly string[],
  rows: readonly BackupRow[],
): Promise<void> {
  await bulkInsert(
    executor,
    table,
    columns,
    rows.map((row) => columns.map((c) => row[c] ?? null)),
  );
}

/**
 * Inserts a page of rows in their order (so new ids keep the file's order) and adds file id ->
 * new id to `ids`, matched back through the table's natural key (`keyColumns`, unique within the
 * workspace or parent).
 */
export async function insertMapped(
  executor: Executor,
  page: {
    table: string;
    columns: readonly string[];
    rows: readonly BackupRow[];
    /** The natural key that matches each stored row back to its file id. */
    keyColumns: readonly string[];
    /** Gets file id -> new id of each row. */
    ids: IdMap;
  },
): Promise<void> {
  const { table, columns, rows, keyColumns, ids } = page;
  if (rows.length === 0) return;
  const keyOf = (row: BackupRow) => JSON.stringify(keyColumns.map((c) => String(row[c])));
  const stored = await bulkInsertReturning<BackupRow>(
    executor,
    { table, columns, rows: rows.map((row) => columns.map((c) => row[c] ?? null)) },
    ['id', ...keyColumns],
  );
  const byKey = new Map<string, number>();
  for (const row of stored) byKey.set(keyOf(row), Number(row.id));
  for (const row of rows) {
    const id = byKey.get(keyOf(row));
    if (id === undefined) throw new Error(`restore: a ${table} row was not stored`);
    ids.set(Number(row.id), id);
  }
}

/**
 * The new id of a reference, null staying null. Validation has already refused a reference to a
 * row the file does not hold, so a miss here is a forward reference, set by `updateLinks` later.
 */
export const mapId = (ids: IdMap, value: unknown): number | null =>
  value === null || value === undefined ? null : (ids.get(Number(value)) ?? null);

/**
 * References of a table to itself (a folder's parent, a text's component), kept as file ids while
 * the table is restored and set once every row has its new id: two arrays of integers, not rows.
 */
export class Links {
  readonly rows: number[] = [];
  readonly targets: number[] = [];
  /** Each link's row's index in its table of the file, for the message naming a broken one. */
  readonly indexes: number[] = [];
  add(index: number, fileId: unknown, target: unknown): void {
    if (target === null || target === undefined) return;
    this.indexes.push(index);
    this.rows.push(Number(fileId));
    this.targets.push(Number(target));
  }
}

/**
 * Sets `column` of the linked rows to their targets' new ids, a page per statement (a `case` on
 * the id: the same SQL on both databases). Answers the index of the first link whose target the
 * file does not hold, or -1.
 */
export async function updateLinks(
  executor: Executor,
  set: { table: string; column: string; links: Links; ids: IdMap },
): Promise<number> {
  const { table, column, links, ids } = set;
  for (let start = 0; start < links.rows.length; start += PAGE_SIZE) {
    const pairs: [number, number][] = [];
    for (let i = start; i < Math.min(start + PAGE_SIZE, links.rows.length); i += 1) {
      const row = ids.get(links.rows[i] as number);
      const target = ids.get(links.targets[i] as number);
      if (target === undefined) return i;
      pairs.push([row as number, target]);
    }
    const cases = sql.join(
      pairs.map(([id, target]) => sql`when ${id} then cast(${target} as integer)`),
      sql` `,
    );
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = case id ${cases} end
      where id in (${sql.join(pairs.map(([id]) => id))})`.execute(executor);
  }
  return -1;
}

/**
 * How a module restores one table of a file: `rows` gets each page in file order (the module
 * checks every row, then writes the page); `finish` runs once the table's last row is written
 * (self-references are set then). Both run in the restore's one transaction.
 */
export interface TableRestorer {
  start?(trx: Executor): Promise<void>;
  rows(trx: Executor, rows: readonly BackupRow[], first: number): Promise<void>;
  finish?(trx: Executor): Promise<void>;
}

/** Refuses a row id the table already had in the file: references would be ambiguous. */
export function checkNewId(table: string, index: number, row: BackupRow, ids: IdMap): void {
  if (ids.has(Number(row.id))) {
    throw badRequest(`file: ${table}[${index}] (id ${String(row.id)}).id: is used by an earlier row`);
  }
}

/** Where a page of a file's table is, and which of its columns the database holds unique. */
export interface UniqueKey {
  /** The table's name in the file, as messages say it. */
  fileTable: string;
  /** The table in the database. */
  table: string;
  /** The columns of one unique constraint, but `workspace_id`; the last is the one a refusal names. */
  keys: readonly string[];
  /** Set when the constraint holds within a workspace (`workspace_id` is one of its columns). */
  workspaceId?: number;
}

const shown = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));

/**
 * Refuses the first row of a page whose unique key an earlier row of the file already has, in
 * the same page or one written before, naming the row and the key's field, as the other checks
 * do; the database would otherwise refuse the insert with its constraint's message, which names
 * neither. `page.rows` are the page as the file has it (for the message), `page.stored` the same rows as
 * they are about to be written (references already mapped to new ids), in the same order. The
 * earlier pages are looked up in the database (one query a page, through the constraint's
 * index): a set of every key of the file would grow with it.
 */
export async function refuseTakenKeys(
  executor: Executor,
  spec: UniqueKey,
  page: { rows: readonly BackupRow[]; stored: readonly BackupRow[]; first: number },
): Promise<void> {
  const { rows, stored, first } = page;
  if (stored.length === 0) return;
  const { fileTable, table, keys, workspaceId } = spec;
  const field = keys[keys.length - 1] as string;
  const refuse = (i: number): never => {
    const same = keys.length > 1 ? ` with the same ${keys.slice(0, -1).join(', ')}` : '';
    throw rowError(
      { table: fileTable, index: first + i, row: rows[i] as BackupRow },
      field,
      `${shown(rows[i]?.[field])} is used by an earlier ${fileTable} row${same}`,
    );
  };
  const keyOf = (row: BackupRow) => JSON.stringify(keys.map((k) => (row[k] == null ? null : String(row[k]))));
  const inPage = new Map<string, number>();
  stored.forEach((row, i) => {
    const key = keyOf(row);
    if (inPage.has(key)) refuse(i);
    inPage.set(key, i);
  });
  const conditions = keys.map((k) => {
    const values = [...new Set(stored.map((row) => row[k] ?? null))].filter((v) => v !== null);
    return values.length === 0 ? sql`false` : sql`${sql.ref(k)} in (${sql.join(values)})`;
  });
  if (workspaceId !== undefined) conditions.push(sql`workspace_id = ${workspaceId}`);
  const { rows: taken } = await sql<BackupRow>`select ${sql.join(keys.map((k) => sql.ref(k)))}
    from ${sql.table(table)} where ${sql.join(conditions, sql` and `)}`.execute(executor);
  for (const row of taken) {
    const i = inPage.get(keyOf(row));
    if (i !== undefined) refuse(i);
  }
}

/**
 * The restorer of a table whose rows may point at another row of the same table (a folder's
 * parent, a project's base): every row checked and written with the link left empty, then the
 * links set once the whole table has its new ids; a link to a row the file does not hold is
 * refused, naming the row and the column.
 */
export function selfLinkedRestorer(spec: {
  /** The table's name in the file, as messages say it. */
  fileTable: string;
  /** The table in the database. */
  table: string;
  /** The file's columns, `id` first. */
  columns: readonly string[];
  checks: Columns;
  link: string;
  ids: IdMap;
  workspaceId: number;
}): TableRestorer {
  const { fileTable, table, columns, checks, link, ids, workspaceId } = spec;
  const links = new Links();
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns({ table: fileTable, index: first + i, row }, checks);
        checkNewId(fileTable, first + i, row, ids);
        links.add(first + i, row.id, row[link]);
      });
      const mapped = rows.map((r) => ({ ...r, workspace_id: workspaceId, [link]: null }));
      const unique = { fileTable, table, keys: ['developer_id'], workspaceId };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table,
        columns: ['workspace_id', ...columns.slice(1)],
        rows: mapped,
        keyColumns: ['developer_id'],
        ids,
      });
    },
    async finish(trx) {
      const looped = firstInCycle(links);
      if (looped >= 0) {
        throw rowError(
          { table: fileTable, index: links.indexes[looped] as number, row: { id: links.rows[looped] } },
          link,
          `leads back to this row through ${fileTable} ${links.targets[looped]}: a ${fileTable} row cannot be its own ancestor`,
        );
      }
      const broken = await updateLinks(trx, { table, column: link, links, ids });
      if (broken >= 0) {
        throw rowError(
          { table: fileTable, index: links.indexes[broken] as number, row: { id: links.rows[broken] } },
          link,
          `refers to ${fileTable} ${links.targets[broken]}, which the file does not hold`,
        );
      }
    },
  };
}

/**
 * The index (in `links`) of a row whose chain of links comes back to a row already on the chain,
 * or -1: a folder that is its own ancestor, a project that is its own base. Each row is walked
 * once (rows proven to end are remembered), so this is linear in the number of links.
 */
export function firstInCycle(links: Links): number {
  const next = new Map<number, number>();
  const at = new Map<number, number>();
  links.rows.forEach((row, i) => {
    next.set(row, links.targets[i] as number);
    at.set(row, i);
  });
  const done = new Set<number>();
  for (const start of links.rows) {
    if (done.has(start)) continue;
    const path = new Set<number>();
    let row: number | undefined = start;
    while (row !== undefined && !done.has(row)) {
      if (path.has(row)) return at.get(row) as number;
      path.add(row);
      row = next.get(row);
    }
    for (const seen of path) done.add(seen);
  }
  return -1;
}
