import { preparedQuery } from '../../db/prepared.js';
import type { Database, Executor } from '../../db/schema.js';

export interface Status {
  id: string;
  name: string;
}

const statusesOfWorkspace = preparedQuery<Database, { workspaceId: number }, Status>((db, marker) =>
  db
    .selectFrom('statuses')
    .select(['status_key as id', 'name'])
    .where('workspace_id', '=', marker('workspaceId'))
    .orderBy('position'),
);

export function listStatuses(db: Executor, workspaceId: number): Promise<Status[]> {
  return statusesOfWorkspace(db, { workspaceId });
}

export async function replaceStatuses(db: Executor, workspaceId: number, statuses: readonly Status[]): Promise<void> {
  await db.deleteFrom('statuses').where('workspace_id', '=', workspaceId).execute();
  await db
    .insertInto('statuses')
    .values(statuses.map((s, position) => ({ workspace_id: workspaceId, status_key: s.id, name: s.name, position })))
    .execute();
}
