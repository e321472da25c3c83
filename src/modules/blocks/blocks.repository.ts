import type { Selectable } from 'kysely';
import { setPositions } from '../../db/positions.js';
import type { BlocksTable, Executor } from '../../db/schema.js';

/** A `blocks` row: this module's own; other modules get a `BlockRef`. */
export type BlockRow = Selectable<BlocksTable>;

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

/** Inserts blocks into one project; answers their row ids by developer ID (unique in the project). */
export async function insertBlocks(
  db: Executor,
  workspaceId: number,
  projectId: number,
  blocks: readonly NewBlock[],
): Promise<Map<string, number>> {
  if (blocks.length === 0) return new Map();
  const rows = await db
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
    .returning(['id', 'developer_id'])
    .execute();
  return new Map(rows.map((row) => [row.developer_id, row.id]));
}

export async function renameBlock(db: Executor, workspaceId: number, id: number, name: string): Promise<void> {
  await db.updateTable('blocks').set({ name }).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** Gives a block a new developer ID (unique within its project: the caller checked). */
export async function setBlockDeveloperId(db: Executor, workspaceId: number, id: number, developerId: string) {
  await db
    .updateTable('blocks')
    .set({ developer_id: developerId })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Deletes blocks. Their text items must have left them first (the texts module does that). */
export async function deleteBlocks(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('blocks').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
}

/** Sets the position of blocks by row id. */
export const setBlockPositions = (db: Executor, workspaceId: number, positions: ReadonlyMap<number, number>) =>
  setPositions(db, 'blocks', workspaceId, positions);
