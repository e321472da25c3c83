import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { WritePath, WriteScope } from '../changes/index.js';
import { changeOf } from '../changes/index.js';
import { containerIdentity } from '../projects/projects.service.js';
import type { TextPositions } from '../texts/index.js';
import { BLOCK_NOT_FOUND, requireProject } from './blocks.refs.js';
import * as repo from './blocks.repository.js';
import type { ProjectOrderInput } from './blocks.schemas.js';
import { checkListed, newPositions, reordered } from './project-order.js';

export type { ProjectOrderInput };

const developerIds = (rows: readonly { developerId: string }[]) => rows.map((row) => row.developerId);

/**
 * PUT /projectOrder: the listed blocks first, in order, then the others in their previous order;
 * the same for text items (whose order counts within their block). The change log records it as
 * an update of the project: `blockOrder` and `textItemOrder`, each the full list of developer IDs
 * before and after, and only the ones that changed.
 */
export async function setProjectOrder(
  deps: { writes: WritePath; itemPositions: TextPositions },
  scope: WriteScope,
  input: ProjectOrderInput,
): Promise<void> {
  const { workspaceId } = scope;
  const { itemPositions } = deps;
  const blockIds = input.blockIds ?? [];
  assertDistinctIds(blockIds, (index) => `blockIds[${index}]`);
  assertDistinctIds(input.textItemIds, (index) => `textItemIds[${index}]`);
  await deps.writes.write(scope, async (trx) => {
    const project = await requireProject(trx, workspaceId, input.projectId);
    const blocks = (await repo.listBlocks(trx, workspaceId, [project.id])).map((b) => ({
      id: b.id,
      developerId: b.developer_id,
      position: b.position,
    }));
    const items = await itemPositions.listItemOrder(trx, workspaceId, project.id);
    checkListed(blockIds, new Set(developerIds(blocks)), 'blockIds', (id) => `${BLOCK_NOT_FOUND}: ${id}`);
    checkListed(
      input.textItemIds,
      new Set(developerIds(items)),
      'textItemIds',
      (id) => `Text item with developer ID ${id} not found in project ${input.projectId}`,
    );
    const blockOrder = reordered(blocks, blockIds);
    const itemOrder = reordered(items, input.textItemIds);
    const change = changeOf(
      containerIdentity(project),
      { blockOrder: developerIds(blocks), textItemOrder: developerIds(items) },
      { blockOrder: developerIds(blockOrder), textItemOrder: developerIds(itemOrder) },
    );
    return {
      changes: change ? [change] : [],
      apply: async (trx) => {
        await repo.setBlockPositions(trx, workspaceId, newPositions(blockOrder));
        await itemPositions.setItemPositions(trx, workspaceId, newPositions(itemOrder));
      },
      result: undefined,
    };
  });
}
