import type { Executor } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { type ProjectRef, projectNotFound, resolveProject } from '../projects/projects.service.js';
import type { BlockRow } from './blocks.repository.js';
import * as repo from './blocks.repository.js';
import type { BlockRef } from './project-order.js';

/** The API's own message for an unknown block (PATCH and DELETE /projectBlocks answer it with 404). */
export const BLOCK_NOT_FOUND = 'Block id not found';

const toBlockRef = (row: BlockRow, rank: number): BlockRef => ({
  id: row.id,
  projectId: row.project_id,
  developerId: row.developer_id,
  name: row.name,
  rank,
});

/** Blocks with their rank, by row id: for `blockName`, `blockId` and `projectOrderKey`. */
export async function loadBlocks(
  executor: Executor,
  workspaceId: number,
  projectIds?: readonly number[],
): Promise<Map<number, BlockRef>> {
  const rows = await repo.listBlocks(executor, workspaceId, projectIds);
  const ranks = new Map<number, number>();
  return new Map(
    rows.map((row) => {
      const rank = ranks.get(row.project_id) ?? 0;
      ranks.set(row.project_id, rank + 1);
      return [row.id, toBlockRef(row, rank)];
    }),
  );
}

/** The blocks of one project in block order. */
export async function blocksOf(executor: Executor, workspaceId: number, projectId: number): Promise<BlockRef[]> {
  return (await repo.listBlocks(executor, workspaceId, [projectId])).map(toBlockRef);
}

/** The blocks among `developerIds` in the project (row id), by developer ID; callers report the missing ones. */
export async function resolveBlocks(
  executor: Executor,
  workspaceId: number,
  projectId: number,
  developerIds: readonly string[],
): Promise<Map<string, BlockRef>> {
  const wanted = new Set(developerIds);
  const blocks = await blocksOf(executor, workspaceId, projectId);
  return new Map(blocks.filter((b) => wanted.has(b.developerId)).map((b) => [b.developerId, b]));
}

export async function resolveBlock(
  executor: Executor,
  workspaceId: number,
  projectId: number,
  developerId: string,
): Promise<BlockRef | null> {
  return (await resolveBlocks(executor, workspaceId, projectId, [developerId])).get(developerId) ?? null;
}

/** `projectId` of a blocks or order request: a project of the workspace (a base has no blocks), else a 400. */
export async function requireProject(
  executor: Executor,
  workspaceId: number,
  developerId: string,
): Promise<ProjectRef> {
  const project = await resolveProject(executor, workspaceId, developerId);
  if (!project) throw badRequest(`projectId: ${projectNotFound(developerId)}`);
  return project;
}
