import type { Executor } from './schema.js';

/** Rows per `case` update: two bound parameters per row, well under either database's limit. */
const ROWS_PER_UPDATE = 500;

/**
 * Sets `position` on rows of `blocks` or `texts` of one workspace by row id, a few hundred rows
 * per `UPDATE ... CASE` statement rather than one statement per row.
 */
export async function setPositions(
  db: Executor,
  table: 'blocks' | 'texts',
  workspaceId: number,
  positions: ReadonlyMap<number, number>,
): Promise<void> {
  const entries = [...positions];
  for (let start = 0; start < entries.length; start += ROWS_PER_UPDATE) {
    const part = entries.slice(start, start + ROWS_PER_UPDATE);
    const [first, ...rest] = part as [[number, number], ...[number, number][]];
    await db
      .updateTable(table)
      .set((eb) => {
        let when = eb.case().when('id', '=', first[0]).then(first[1]);
        for (const [id, position] of rest) when = when.when('id', '=', id).then(position);
        return { position: when.else(eb.ref('position')).end() };
      })
      .where('workspace_id', '=', workspaceId)
      .where(
        'id',
        'in',
        part.map(([id]) => id),
      )
      .execute();
  }
}
