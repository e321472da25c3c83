import { setPositions } from '../../db/positions.js';
import type { Executor } from '../../db/schema.js';

/**
 * Where text items stand in their project's custom order (`texts.position`). The project order
 * (blocks module) decides the order; the column belongs to the texts tables, so only this file
 * reads and writes it, and the blocks service reaches it through an injected dependency.
 */

/** A text item with what its place in the project order depends on. */
export interface ItemPlace {
  /** Row id. */
  id: number;
  developerId: string;
  /** Row id of the block, null outside blocks. */
  blockId: number | null;
  position: number;
}

/** The text items of one project in their item order (`position`, ties by creation). */
async function listItemOrder(db: Executor, workspaceId: number, projectId: number): Promise<ItemPlace[]> {
  const rows = await db
    .selectFrom('texts')
    .select(['id', 'developer_id', 'block_id', 'position'])
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'text_item')
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, developerId: r.developer_id, blockId: r.block_id, position: r.position }));
}

/** Sets the position of text items by row id. */
const setItemPositions = (db: Executor, workspaceId: number, positions: ReadonlyMap<number, number>) =>
  setPositions(db, 'texts', workspaceId, positions);

/**
 * One past the highest item position of the project (0 when it has none): where a new text item
 * goes, so that it never jumps ahead of a reordered project.
 */
async function nextItemPosition(db: Executor, workspaceId: number, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('texts')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'text_item')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

export const textPositions = { listItemOrder, setItemPositions, nextItemPosition };

export type TextPositions = typeof textPositions;
