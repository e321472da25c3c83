import type { Executor } from '../../db/schema.js';
import { chunks } from '../texts/index.js';

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
