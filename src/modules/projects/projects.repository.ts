import type { Selectable } from 'kysely';
import type { Executor, ProjectsTable } from '../../db/schema.js';

/** A `projects` row (projects and bases): this module's own; other modules get a `ProjectRef`. */
export type ProjectRow = Selectable<ProjectsTable>;

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

/** Inserts projects or bases; answers their row ids by developer ID (unique in the workspace). */
export async function insertContainers(
  db: Executor,
  workspaceId: number,
  containers: readonly NewContainer[],
  createdAt: string,
): Promise<Map<string, number>> {
  if (containers.length === 0) return new Map();
  const rows = await db
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
    .returning(['id', 'developer_id'])
    .execute();
  return new Map(rows.map((row) => [row.developer_id, row.id]));
}

export interface ProjectChanges {
  developer_id?: string;
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
 * Deletes projects or bases; projects connected to a deleted base are disconnected. Their text
 * items and blocks must be gone first (the texts and blocks modules do that, recording each).
 */
export async function deleteContainers(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('projects')
    .set({ base_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('base_id', 'in', ids)
    .execute();
  await db.deleteFrom('projects').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
}
