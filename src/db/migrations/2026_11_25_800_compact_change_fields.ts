import type { Kysely } from 'kysely';

/**
 * Change fields stored as `[before, after]` (two objects of the same field names, either null
 * when all its values are) rather than `{ field: { before, after } }`: half the bytes for the
 * thousands of changes of a batch create. Rewrites the changes recorded so far; the code of
 * this migration is its own, so later changes to the format do not alter it.
 */
type Pairs = Record<string, { before: unknown; after: unknown }>;
type Sides = [Record<string, unknown> | null, Record<string, unknown> | null];

const BATCH = 1_000;

function toSides(pairs: Pairs): Sides {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  let beforeNull = true;
  let afterNull = true;
  for (const [name, change] of Object.entries(pairs)) {
    before[name] = change.before ?? null;
    after[name] = change.after ?? null;
    if (before[name] !== null) beforeNull = false;
    if (after[name] !== null) afterNull = false;
  }
  return [beforeNull ? null : before, afterNull && !beforeNull ? null : after];
}

function toPairs([before, after]: Sides): Pairs {
  const pairs: Pairs = {};
  for (const name of Object.keys(before ?? after ?? {})) {
    pairs[name] = { before: before?.[name] ?? null, after: after?.[name] ?? null };
  }
  return pairs;
}

async function rewrite(db: Kysely<any>, convert: (stored: unknown) => unknown): Promise<void> {
  let last = 0;
  for (;;) {
    const rows: { id: number; fields: string }[] = await db
      .selectFrom('changes')
      .select(['id', 'fields'])
      .where('id', '>', last)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      const fields = JSON.stringify(convert(JSON.parse(row.fields)));
      if (fields !== row.fields) await db.updateTable('changes').set({ fields }).where('id', '=', row.id).execute();
    }
    last = Number(rows.at(-1)?.id);
  }
}

/** A row already in the new form is left as it is, so an interrupted run can simply run again. */
export async function up(db: Kysely<any>): Promise<void> {
  await rewrite(db, (stored) => (Array.isArray(stored) ? stored : toSides(stored as Pairs)));
}

export async function down(db: Kysely<any>): Promise<void> {
  await rewrite(db, (stored) => (Array.isArray(stored) ? toPairs(stored as Sides) : stored));
}
