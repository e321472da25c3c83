import type { Executor } from '../../db/schema.js';

/** A pin as the pins service answers it: names, not row ids. */
export interface PinRow {
  project: string;
  release: string;
  pinned_by: string;
  pinned_at: string;
}

/** The workspace's pins, by project developer ID. */
export function listPins(db: Executor, workspaceId: number): Promise<PinRow[]> {
  return db
    .selectFrom('release_pins as p')
    .innerJoin('projects as pr', 'pr.id', 'p.project_id')
    .innerJoin('releases as r', 'r.id', 'p.release_id')
    .select(['pr.developer_id as project', 'r.name as release', 'p.pinned_by', 'p.pinned_at'])
    .where('p.workspace_id', '=', workspaceId)
    .orderBy('pr.developer_id')
    .execute();
}

/** The row id of a project (not a base) of the workspace. */
export async function projectRowId(
  db: Executor,
  workspaceId: number,
  developerId: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'project')
    .where('developer_id', '=', developerId)
    .executeTakeFirst();
  return row?.id;
}

/** Developer IDs of every project (not base) of the workspace: what a read without a project filter covers. */
export async function projectIds(db: Executor, workspaceId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('projects')
    .select('developer_id')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'project')
    .execute();
  return rows.map((r) => r.developer_id);
}

export async function setPin(
  db: Executor,
  pin: { workspaceId: number; projectId: number; releaseId: number; by: string; at: string },
): Promise<void> {
  const row = {
    project_id: pin.projectId,
    workspace_id: pin.workspaceId,
    release_id: pin.releaseId,
    pinned_by: pin.by,
    pinned_at: pin.at,
  };
  await db
    .insertInto('release_pins')
    .values(row)
    .onConflict((oc) =>
      oc.column('project_id').doUpdateSet({ release_id: pin.releaseId, pinned_by: pin.by, pinned_at: pin.at }),
    )
    .execute();
}

export async function clearPin(db: Executor, workspaceId: number, projectId: number): Promise<void> {
  await db
    .deleteFrom('release_pins')
    .where('workspace_id', '=', workspaceId)
    .where('project_id', '=', projectId)
    .execute();
}

/** Developer IDs of the projects pinned to a release (it cannot be deleted while any is). */
export async function projectsPinnedTo(db: Executor, workspaceId: number, releaseId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('release_pins as p')
    .innerJoin('projects as pr', 'pr.id', 'p.project_id')
    .select('pr.developer_id')
    .where('p.workspace_id', '=', workspaceId)
    .where('p.release_id', '=', releaseId)
    .orderBy('pr.developer_id')
    .execute();
  return rows.map((r) => r.developer_id);
}
