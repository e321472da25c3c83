import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database, Executor } from '../../db/schema.js';
import { writeTransaction } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { type ProjectRef, projectNotFound, resolveProject } from '../projects/projects.service.js';
import { slugify, uniqueDeveloperId } from '../shared/developer-id.js';
import { BLOCK_NOT_FOUND, blocksOf, loadBlocks, nextItemPosition, resolveBlock, resolveBlocks } from './blocks.refs.js';
import * as repo from './blocks.repository.js';
import {
  type BlockRef,
  checkListed,
  compareProjectOrder,
  itemsInOrder,
  type OrderedTextItem,
  projectOrderKey,
  reorder,
} from './project-order.js';

export type { BlockRef, OrderedTextItem };
export {
  BLOCK_NOT_FOUND,
  compareProjectOrder,
  loadBlocks,
  nextItemPosition,
  projectOrderKey,
  resolveBlock,
  resolveBlocks,
};

export interface Block {
  id: string;
  name: string;
}

export interface NewBlockInput {
  name: string;
  developerId?: string;
}

export interface BlockUpdate {
  developerId: string;
  name?: string;
}

export interface ProjectOrderInput {
  projectId: string;
  blockIds?: string[];
  textItemIds: string[];
}

/** `projectId` of a blocks or order request: a project of the workspace (a base has no blocks), else a 400. */
async function requireProject(executor: Executor, workspaceId: number, developerId: string): Promise<ProjectRef> {
  const project = await resolveProject(executor, workspaceId, developerId);
  if (!project) throw badRequest(`projectId: ${projectNotFound(developerId)}`);
  return project;
}

/** Blocks named by a PATCH or DELETE: repeated ids are a 400, unknown ones the API's 404. */
function targets(blocks: readonly BlockRef[], developerIds: readonly string[], path: (i: number) => string) {
  const byDeveloperId = new Map(blocks.map((b) => [b.developerId, b]));
  const seen = new Set<string>();
  return developerIds.map((id, index) => {
    if (seen.has(id)) throw badRequest(`${path(index)}: duplicate developer ID '${id}'`);
    seen.add(id);
    const block = byDeveloperId.get(id);
    if (!block) throw notFound(BLOCK_NOT_FOUND);
    return block;
  });
}

export function createBlocksService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  return {
    loadBlocks,
    resolveBlocks,
    resolveBlock,
    nextItemPosition,

    async list(workspaceId: number, projectId: string): Promise<Block[]> {
      const project = await requireProject(db, workspaceId, projectId);
      return (await blocksOf(db, workspaceId, project.id)).map((b) => ({ id: b.developerId, name: b.name }));
    },

    /** Appends blocks to the end of the project's block order, in request order. */
    async create(workspaceId: number, projectId: string, blocks: readonly NewBlockInput[]): Promise<string[]> {
      try {
        return await writeTransaction(db, workspaceId, async (trx) => {
          const project = await requireProject(trx, workspaceId, projectId);
          const existing = await repo.listBlocks(trx, workspaceId, [project.id]);
          const held = new Set(existing.map((b) => b.developer_id));
          const taken = new Set([...held, ...blocks.flatMap((b) => b.developerId ?? [])]);
          const inRequest = new Set<string>();
          let position = Math.max(-1, ...existing.map((b) => b.position));
          const planned = blocks.map((block, index) => {
            const at = `blocks[${index}].developerId`;
            let developerId = block.developerId;
            if (developerId === undefined) {
              developerId = uniqueDeveloperId(slugify(block.name), taken);
            } else if (held.has(developerId)) {
              throw conflict(
                `${at}: Block with developer ID ${developerId} already exists in workspace project ${projectId}`,
              );
            } else if (inRequest.has(developerId)) {
              throw conflict(
                `${at}: Block with developer ID ${developerId} already exists in workspace project ${projectId}`,
              );
            }
            inRequest.add(developerId);
            position += 1;
            return { developerId, name: block.name, position };
          });
          await repo.insertBlocks(trx, workspaceId, project.id, planned);
          return planned.map((b) => b.developerId);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('blocks: one of these developer IDs already exists in workspace');
        throw error;
      }
    },

    async update(workspaceId: number, projectId: string, updates: readonly BlockUpdate[]): Promise<void> {
      await writeTransaction(db, workspaceId, async (trx) => {
        const project = await requireProject(trx, workspaceId, projectId);
        const blocks = await blocksOf(trx, workspaceId, project.id);
        const found = targets(
          blocks,
          updates.map((u) => u.developerId),
          (i) => `updates[${i}].developerId`,
        );
        for (const [index, update] of updates.entries()) {
          if (update.name !== undefined)
            await repo.renameBlock(trx, workspaceId, found[index]?.id as number, update.name);
        }
      });
    },

    /** Deletes blocks, all or none; their text items stay in the project, outside any block. */
    async remove(workspaceId: number, projectId: string, developerIds: readonly string[]): Promise<void> {
      await writeTransaction(db, workspaceId, async (trx) => {
        const project = await requireProject(trx, workspaceId, projectId);
        const found = targets(await blocksOf(trx, workspaceId, project.id), developerIds, (i) => `developerIds[${i}]`);
        await repo.deleteBlocks(
          trx,
          workspaceId,
          found.map((b) => b.id),
        );
      });
    },

    /**
     * Sets the custom order of a project: the listed blocks first, in order, then the others in
     * their previous order; the same for text items (whose order counts within their block).
     */
    async setOrder(workspaceId: number, input: ProjectOrderInput): Promise<void> {
      await writeTransaction(db, workspaceId, async (trx) => {
        const project = await requireProject(trx, workspaceId, input.projectId);
        const blocks = (await repo.listBlocks(trx, workspaceId, [project.id])).map((b) => ({
          id: b.id,
          developerId: b.developer_id,
          position: b.position,
        }));
        const items = itemsInOrder(await repo.listItemOrder(trx, workspaceId, project.id));
        const blockIds = input.blockIds ?? [];
        const inProject = ` in project ${input.projectId}`;
        checkListed(
          blockIds,
          new Set(blocks.map((b) => b.developerId)),
          'blockIds',
          (id) => `${BLOCK_NOT_FOUND}: ${id}`,
        );
        checkListed(
          input.textItemIds,
          new Set(items.map((i) => i.developerId)),
          'textItemIds',
          (id) => `Text item with developer ID ${id} not found${inProject}`,
        );
        await repo.setPositions(trx, 'blocks', workspaceId, reorder(blocks, blockIds));
        await repo.setPositions(trx, 'texts', workspaceId, reorder(items, input.textItemIds));
      });
    },
  };
}

export type BlocksService = ReturnType<typeof createBlocksService>;
