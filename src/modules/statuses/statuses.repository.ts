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

/** The statuses among `keys` that a text or a variant value of the workspace still carries. */
export async function statusesInUse(db: Executor, workspaceId: number, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const onTexts = await db
    .selectFrom('texts')
    .select('status')
    .distinct()
    .where('workspace_id', '=', workspaceId)
    .where('status', 'in', keys)
    .execute();
  const onVariants = await db
    .selectFrom('text_variants')
    .innerJoin('texts', 'texts.id', 'text_variants.text_id')
    .select('text_variants.status')
    .distinct()
    .where('texts.workspace_id', '=', workspaceId)
    .where('text_variants.status', 'in', keys)
    .execute();
  return [...new Set([...onTexts, ...onVariants].map((r) => r.status))];
}

export async function reassignStatus(db: Executor, workspaceId: number, from: string, to: string): Promise<void> {
  await db
    .updateTable('texts')
    .set({ status: to })
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', from)
    .execute();
  await db
    .updateTable('text_variants')
    .set({ status: to })
    .where('status', '=', from)
    .where('text_id', 'in', (eb) => eb.selectFrom('texts').select('id').where('workspace_id', '=', workspaceId))
    .execute();
}
