import type { BlockRow, Executor } from '../../db/schema.js';

/** Blocks of the given projects (all of the workspace when omitted), in block order within each project. */
export async function listBlocks(
  db: Executor,
  workspaceId: number,
  projectIds?: readonly number[],
): Promise<BlockRow[]> {
  if (projectIds?.length === 0) return [];
  return db
    .selectFrom('blocks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .$if(projectIds !== undefined, (q) => q.where('project_id', 'in', projectIds as number[]))
    .orderBy('project_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export interface NewBlock {
  developerId: string;
  name: string;
  position: number;
}

export async function insertBlocks(
  db: Executor,
  workspaceId: number,
  projectId: number,
  blocks: readonly NewBlock[],
): Promise<void> {
  if (blocks.length === 0) return;
  await db
    .insertInto('blocks')
    .values(
      blocks.map((b) => ({
        workspace_id: workspaceId,
        project_id: projectId,
        developer_id: b.developerId,
        name: b.name,
        position: b.position,
      })),
    )
    .execute();
}

export async function renameBlock(db: Executor, workspaceId: number, id: number, name: string): Promise<void> {
  await db.updateTable('blocks').set({ name }).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/**
 * Deletes blocks; their text items stay in the project outside any block. The foreign key would
 * detach them on its own; doing it first keeps the outcome independent of the database.
 */
export async function deleteBlocks(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('texts')
    .set({ block_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('block_id', 'in', ids)
    .execute();
  await db.deleteFrom('blocks').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
}

export interface OrderedTextItemRow {
  id: number;
  developer_id: string;
  block_id: number | null;
  position: number;
}

/** The text items of one project with what their order depends on, in their current custom order. */
export async function listItemOrder(
  db: Executor,
  workspaceId: number,
  projectId: number,
): Promise<OrderedTextItemRow[]> {
  return db
    .selectFrom('texts')
    .select(['id', 'developer_id', 'block_id', 'position'])
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'text_item')
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Rows per `case` update: two bound parameters per row, well under either database's limit. */
const ROWS_PER_UPDATE = 500;

/** Sets `position` on rows of `blocks` or `texts`, a few hundred rows per statement. */
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

/** One past the highest item position of the project (0 when it has none). */
export async function nextItemPosition(db: Executor, workspaceId: number, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('texts')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'text_item')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}
