import type { Executor } from '../../db/schema.js';
import { chunks } from '../texts/texts.repository.js';

/**
 * SQL of text items beyond the shared texts core: derivations from base items and instance links.
 * Loading and writing content goes through `src/modules/texts/texts.repository.ts`.
 */

const IDS_PER_QUERY = 5_000;

/** Developer ID -> row id of the items among `developerIds` that the container (a base) holds. */
export async function itemsOfContainer(
  db: Executor,
  workspaceId: number,
  containerId: number,
  developerIds: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const part of chunks([...new Set(developerIds)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('texts')
      .select(['id', 'developer_id'])
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'text_item')
      .where('project_id', '=', containerId)
      .where('developer_id', 'in', part)
      .execute();
    for (const row of rows) found.set(row.developer_id, row.id);
  }
  return found;
}

/**
 * Items deriving from items about to be deleted lose the link. The foreign key would do it on its
 * own; doing it first keeps the outcome independent of the database.
 */
export async function clearDerivations(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids, IDS_PER_QUERY)) {
    await db
      .updateTable('texts')
      .set({ base_text_item_id: null })
      .where('workspace_id', '=', workspaceId)
      .where('base_text_item_id', 'in', part)
      .execute();
  }
}

/** Developer IDs of components by row id (for naming the component of an instance). */
export async function componentDeveloperIds(
  db: Executor,
  workspaceId: number,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('texts')
    .select(['id', 'developer_id'])
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'component')
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.developer_id]));
}
