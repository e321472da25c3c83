import type { Executor, ProjectRow, ProjectsTable } from '../../db/schema.js';

type Kind = ProjectsTable['kind'];

/** Every project and base of the workspace in creation order. They are few: one query serves all lookups. */
export async function listContainers(db: Executor, workspaceId: number, kind?: Kind): Promise<ProjectRow[]> {
  let query = db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId);
  if (kind) query = query.where('kind', '=', kind);
  return query.orderBy('id').execute();
}

export async function findContainers(
  db: Executor,
  workspaceId: number,
  developerIds: readonly string[],
): Promise<ProjectRow[]> {
  if (developerIds.length === 0) return [];
  return db
    .selectFrom('projects')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('developer_id', 'in', developerIds)
    .execute();
}

export interface NewContainer {
  kind: Kind;
  developerId: string;
  name: string;
  baseId: number | null;
  developerMode: boolean;
}

export async function insertContainers(
  db: Executor,
  workspaceId: number,
  containers: readonly NewContainer[],
  createdAt: string,
): Promise<void> {
  if (containers.length === 0) return;
  await db
    .insertInto('projects')
    .values(
      containers.map((c) => ({
        workspace_id: workspaceId,
        kind: c.kind,
        developer_id: c.developerId,
        name: c.name,
        base_id: c.baseId,
        developer_mode: c.developerMode ? 1 : 0,
        created_at: createdAt,
      })),
    )
    .execute();
}

export interface ProjectChanges {
  name?: string;
  base_id?: number | null;
  developer_mode?: number;
}

export async function updateProject(
  db: Executor,
  workspaceId: number,
  id: number,
  changes: ProjectChanges,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('projects').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/**
 * A project that changes base keeps only the derivations that still point into its (new) base:
 * `baseTextItemId` always names an item of the connected base.
 */
export async function dropForeignDerivations(
  db: Executor,
  workspaceId: number,
  projectId: number,
  baseId: number | null,
): Promise<void> {
  let query = db
    .updateTable('texts')
    .set({ base_text_item_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'text_item')
    .where('project_id', '=', projectId)
    .where('base_text_item_id', 'is not', null);
  if (baseId !== null) {
    query = query.where('base_text_item_id', 'not in', (eb) =>
      eb.selectFrom('texts').select('id').where('workspace_id', '=', workspaceId).where('project_id', '=', baseId),
    );
  }
  await query.execute();
}

/**
 * Deletes projects or bases with their text items and blocks. The foreign keys would cascade on
 * their own; the explicit steps keep the outcome independent of how each database orders its
 * foreign-key actions. What points at the deleted rows from elsewhere is detached by the foreign
 * keys: `texts.base_text_item_id` of derived items and `projects.base_id` of connected projects.
 */
export async function deleteContainers(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('projects')
    .set({ base_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('base_id', 'in', ids)
    .execute();
  await db
    .deleteFrom('texts')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'text_item')
    .where('project_id', 'in', ids)
    .execute();
  await db.deleteFrom('blocks').where('workspace_id', '=', workspaceId).where('project_id', 'in', ids).execute();
  await db.deleteFrom('projects').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
}
