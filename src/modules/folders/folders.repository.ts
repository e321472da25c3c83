import type { Selectable } from 'kysely';
import type { ComponentFoldersTable, Executor } from '../../db/schema.js';

/** A `component_folders` row: this module's own; other modules get a `FolderRef`. */
export type FolderRow = Selectable<ComponentFoldersTable>;

/** Every folder of the workspace in creation order. Folder trees are small: one query serves all lookups. */
export async function listFolders(db: Executor, workspaceId: number): Promise<FolderRow[]> {
  return db.selectFrom('component_folders').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}

export async function findFolder(
  db: Executor,
  workspaceId: number,
  developerId: string,
): Promise<FolderRow | undefined> {
  return db
    .selectFrom('component_folders')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('developer_id', '=', developerId)
    .executeTakeFirst();
}

export interface NewFolder {
  developerId: string;
  name: string;
  parentId: number | null;
  createdAt: string;
}

/** Inserts one folder and returns its row id, which later folders of the same request may name as parent. */
export async function insertFolder(db: Executor, workspaceId: number, folder: NewFolder): Promise<number> {
  const row = await db
    .insertInto('component_folders')
    .values({
      workspace_id: workspaceId,
      developer_id: folder.developerId,
      name: folder.name,
      parent_id: folder.parentId,
      created_at: folder.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Moves the subfolders of any of `fromIds` under `to` (null: the library root). */
export async function moveSubfolders(
  db: Executor,
  workspaceId: number,
  fromIds: readonly number[],
  to: number | null,
): Promise<void> {
  await db
    .updateTable('component_folders')
    .set({ parent_id: to })
    .where('workspace_id', '=', workspaceId)
    .where('parent_id', 'in', fromIds)
    .execute();
}

export async function deleteFolders(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  // Detach first, so the delete never depends on how either database orders the foreign-key actions.
  await db
    .updateTable('component_folders')
    .set({ parent_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
  await db.deleteFrom('component_folders').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
}

export interface FolderChanges {
  developer_id?: string;
  name?: string;
  parent_id?: number | null;
}

/** Renames or moves one folder. */
export async function updateFolder(db: Executor, workspaceId: number, id: number, changes: FolderChanges) {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('component_folders')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Sets a folder's name and parent (a restore puts a folder back where it was). */
export async function placeFolder(
  db: Executor,
  workspaceId: number,
  id: number,
  folder: { name: string; parentId: number | null },
): Promise<void> {
  await db
    .updateTable('component_folders')
    .set({ name: folder.name, parent_id: folder.parentId })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}
