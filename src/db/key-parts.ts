import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import { nextTurn } from '../shared/next-turn.js';
import { dialectOf } from './dialect.js';
import { codeUnitOrder } from './query-plan.js';
import type { Database, Executor } from './schema.js';

/** A part of the developer-ID key space: from `lo` to `hi`, with or without both ends. */
export interface KeyPart {
  lo: string;
  hi: string;
  inclusive: boolean;
}

/** The texts of one key part: how many, and their stamps joined by `,` in developer-ID order. */
export interface KeyPartDigest {
  count: number;
  stamps: string;
}

/** What `keyPartDigests` aggregates: which texts, and each text's stamp. */
export interface KeyPartQuery {
  /**
   * The parts, as `keyParts(ranges)` cuts them: before the first range, the first range, between
   * it and the next, ..., after the last (2n + 1). Odd parts are ranges, even parts gaps.
   */
  parts: readonly KeyPart[];
  ranges: readonly { first: string; last: string }[];
  /** The WHERE of the selected texts. */
  where: (eb: ExpressionBuilder<Database, 'texts'>) => Expression<SqlBool>;
  /** A text's stamp. */
  stamp: RawBuilder<string>;
}

/** Parts per digest query on SQLite: about 8,000 texts, a few milliseconds on the event loop at a time. */
const PARTS_PER_QUERY = 32;

/**
 * The selected texts' count and stamps in each key part (of a gap between two ranges, on SQLite,
 * only whether it holds a text: a count of 0 or 1 and no stamps), aggregated by the database: one
 * row per part, none per text. On SQLite each part is a seek on the (workspace, kind, developer
 * ID) index; on PostgreSQL, whose index follows the database's collation rather than code-unit
 * order, one pass over the selection puts each text in its part (`width_bucket` in the "C"
 * collation).
 */
export async function keyPartDigests(db: Executor, query: KeyPartQuery): Promise<KeyPartDigest[]> {
  const { parts, ranges, where, stamp } = query;
  const out = parts.map((): KeyPartDigest => ({ count: 0, stamps: '' }));
  const key = codeUnitOrder(db, 'texts.developer_id');
  const set = (part: number, stamps: string | null) => {
    out[part] = { count: stamps ? stamps.split(',').length : 0, stamps: stamps ?? '' };
  };
  if (dialectOf(db) === 'postgres') {
    const firsts = ranges.map((range) => range.first);
    const lasts = ranges.map((range) => range.last);
    // Bucket b: the keys from range b's first (1-based; 0 before the first range) to the next one's.
    const bucket = ranges.length === 0 ? sql<number>`0` : sql<number>`width_bucket(${key}, ${firsts}::text[])`;
    const texts = db
      .selectFrom('texts')
      .where(where)
      .select([stamp.as('stamp'), sql<string>`texts.developer_id`.as('key'), bucket.as('b')]);
    const part = sql<number>`case when t.b = 0 then 0
      when t.key collate "C" <= (${lasts}::text[])[t.b] then 2 * t.b - 1 else 2 * t.b end`;
    const rows = await db
      .selectFrom(texts.as('t'))
      .select([part.as('part'), sql<string>`string_agg(t.stamp, ',' order by t.key collate "C")`.as('stamps')])
      .groupBy(sql`1`)
      .execute();
    for (const row of rows) set(Number(row.part), row.stamps);
    return out;
  }
  for (let from = 0; from < parts.length; from += PARTS_PER_QUERY) {
    // SQLite answers on the event loop: other requests get a turn between queries.
    if (from > 0) await nextTurn();
    const batch = parts.slice(from, from + PARTS_PER_QUERY);
    const source = sql<{ i: number; lo: string; hi: string; inc: number }>`(select cast(key as integer) as i,
      value ->> 0 as lo, value ->> 1 as hi, value ->> 2 as inc, value ->> 3 as gap
      from json_each(${JSON.stringify(batch.map((r, i) => [r.lo, r.hi, r.inclusive ? 1 : 0, (from + i) % 2 === 0 ? 1 : 0]))}))`;
    const within = sql<SqlBool>`${key} >= r.lo and ${key} <= r.hi and (r.inc = 1 or (${key} <> r.lo and ${key} <> r.hi))`;
    // One subquery per part, run as a seek on the (workspace, kind, developer ID) index, which
    // visits the texts in developer-ID order. The concatenation has no ORDER BY of its own: SQLite
    // would sort again what the index already gives in order (a temporary B-tree per part, half
    // the query's time). Should it ever concatenate in another order, the digest differs from the
    // stored run's and the range is read text by text: slower, never wrong.
    // A part between two ranges (even index) needs only whether it holds a text: its texts are
    // read page by page anyway. Concatenating its stamps would be one synchronous query over
    // every text of a first export (no ranges yet), a second or more at 200,000 texts.
    const rows = await db
      .selectFrom(source.as('r'))
      .select((eb) => {
        const inPart = eb
          .selectFrom('texts')
          .where((inner) => where(inner as unknown as ExpressionBuilder<Database, 'texts'>))
          .where(within);
        const any = inPart.select(sql<string>`''`.as('stamps')).limit(1);
        const all = inPart.select(sql<string>`group_concat(${stamp}, ',')`.as('stamps'));
        return [
          sql<number>`r.i`.as('i'),
          sql<string | null>`case when r.gap = 1 then (${any}) else (${all}) end`.as('stamps'),
        ];
      })
      .execute();
    for (const row of rows) {
      const part = from + Number(row.i);
      if (part % 2 === 0) out[part] = { count: row.stamps === null ? 0 : 1, stamps: '' };
      else set(part, row.stamps as string | null);
    }
  }
  return out;
}
