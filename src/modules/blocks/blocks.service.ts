import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { maxOf } from '../../shared/arrays.js';
import { slugify, uniqueDeveloperId } from '../../shared/developer-id.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { Change, WritePath, WriteScope } from '../changes/index.js';
import { changesOf } from '../changes/index.js';
import type { ProjectRef } from '../projects/projects.service.js';
import type { TextPositions } from '../texts/index.js';
import { type ProjectOrderInput, setProjectOrder } from './blocks.order.js';
import { BLOCK_NOT_FOUND, blocksOf, loadBlocks, requireProject, resolveBlock, resolveBlocks } from './blocks.refs.js';
import * as repo from './blocks.repository.js';
import type { BlockUpdate, NewBlockInput } from './blocks.schemas.js';
import { type BlockRef, compareProjectOrder, type OrderedTextItem, projectOrderKey } from './project-order.js';

export type { BlockRef, BlockUpdate, NewBlockInput, OrderedTextItem, ProjectOrderInput };
export { BLOCK_NOT_FOUND, compareProjectOrder, loadBlocks, projectOrderKey, resolveBlock, resolveBlocks };

export interface Block {
  id: string;
  name: string;
}

export interface BlocksDeps {
  db: Kysely<Database>;
  writes: WritePath;
  /** The position of text items in their project (the texts module owns the column). */
  itemPositions: TextPositions;
  /** Takes the text items out of blocks that are about to go, answering their changes. */
  detachFromBlocks: (trx: Transaction<Database>, workspaceId: number, blockIds: readonly number[]) => Promise<Change[]>;
}

/** Blocks named by a PATCH or DELETE (already distinct); an unknown one is the API's 404. */
function targets(blocks: readonly BlockRef[], developerIds: readonly string[]): BlockRef[] {
  const byDeveloperId = new Map(blocks.map((b) => [b.developerId, b]));
  return developerIds.map((id) => {
    const block = byDeveloperId.get(id);
    if (!block) throw notFound(BLOCK_NOT_FOUND);
    return block;
  });
}

/**
 * A block in the change log. Its developer ID is unique only within its project, so creates and
 * deletes also name the project (`projectId`).
 */
const identity = (id: number, developerId: string) => ({ kind: 'block' as const, ref: `block:${id}`, developerId });
const fieldsOf = (project: ProjectRef, name: string) => ({ projectId: project.developerId, name });

export function createBlocksService(deps: BlocksDeps) {
  const { db, writes, itemPositions } = deps;

  return {
    loadBlocks,
    resolveBlocks,
    resolveBlock,
    /** Where a new text item of the project goes in the custom order (for the text items module). */
    nextItemPosition: itemPositions.nextItemPosition,

    async list(workspaceId: number, projectId: string): Promise<Block[]> {
      const project = await requireProject(db, workspaceId, projectId);
      return (await blocksOf(db, workspaceId, project.id)).map((b) => ({ id: b.developerId, name: b.name }));
    },

    /** Appends blocks to the end of the project's block order, in request order. */
    async create(scope: WriteScope, projectId: string, blocks: readonly NewBlockInput[]): Promise<string[]> {
      const { workspaceId } = scope;
      assertDistinctIds(
        blocks.map((block) => block.developerId),
        (index) => `blocks[${index}].developerId`,
      );
      try {
        return await writes.write(scope, async (trx) => {
          const project = await requireProject(trx, workspaceId, projectId);
          const existing = await repo.listBlocks(trx, workspaceId, [project.id]);
          const held = new Set(existing.map((b) => b.developer_id));
          const taken = new Set([...held, ...blocks.flatMap((b) => b.developerId ?? [])]);
          let position = maxOf(
            existing.map((b) => b.position),
            -1,
          );
          const planned = blocks.map((block, index) => {
            let developerId = block.developerId;
            if (developerId === undefined) {
              developerId = uniqueDeveloperId(slugify(block.name), taken);
            } else if (held.has(developerId)) {
              throw conflict(
                `blocks[${index}].developerId: Block with developer ID ${developerId} already exists in workspace project ${projectId}`,
              );
            }
            position += 1;
            return { developerId, name: block.name, position };
          });
          const ids = await repo.insertBlocks(trx, workspaceId, project.id, planned);
          const changes = changesOf(
            planned.map((b) => ({
              identity: identity(ids.get(b.developerId) as number, b.developerId),
              before: null,
              after: fieldsOf(project, b.name),
            })),
          );
          return { changes, result: planned.map((b) => b.developerId) };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('blocks: one of these developer IDs already exists in workspace');
        throw error;
      }
    },

    /** Renames blocks and gives them new developer IDs, all or none. */
    async update(scope: WriteScope, projectId: string, updates: readonly BlockUpdate[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(
        updates.map((u) => u.developerId),
        (index) => `updates[${index}].developerId`,
      );
      await writes.write(scope, async (trx) => {
        const project = await requireProject(trx, workspaceId, projectId);
        const all = await blocksOf(trx, workspaceId, project.id);
        const found = targets(
          all,
          updates.map((u) => u.developerId),
        );
        const held = new Set(all.map((b) => b.developerId));
        const newIds = new Map<string, number>();
        const renames = updates.flatMap((update, index) => {
          const block = found[index] as BlockRef;
          const name = update.name ?? block.name;
          let developerId = block.developerId;
          const wanted = update.newDeveloperId;
          if (wanted !== undefined && wanted !== block.developerId) {
            // A swap of two IDs takes two requests.
            if (held.has(wanted)) {
              throw conflict(
                `updates[${index}].newDeveloperId: Block with developer ID ${wanted} already exists in workspace project ${projectId}`,
              );
            }
            const other = newIds.get(wanted);
            if (other !== undefined) {
              throw badRequest(
                `updates[${index}].newDeveloperId: developer ID '${wanted}' is also given to updates[${other}]`,
              );
            }
            newIds.set(wanted, index);
            developerId = wanted;
          }
          return name === block.name && developerId === block.developerId ? [] : [{ block, name, developerId }];
        });
        return {
          // A new developer ID is recorded as `renamed`; the block's history follows its row.
          changes: changesOf(
            renames.map(({ block, name, developerId }) => {
              const renamed = developerId !== block.developerId;
              return {
                identity: identity(block.id, developerId),
                before: { ...fieldsOf(project, block.name), ...(renamed && { developerId: block.developerId }) },
                after: { ...fieldsOf(project, name), ...(renamed && { developerId }) },
              };
            }),
          ),
          apply: async (trx) => {
            for (const { block, name, developerId } of renames) {
              if (name !== block.name) await repo.renameBlock(trx, workspaceId, block.id, name);
              if (developerId !== block.developerId) {
                await repo.setBlockDeveloperId(trx, workspaceId, block.id, developerId);
              }
            }
          },
          result: undefined,
        };
      });
    },

    /** Deletes blocks, all or none; their text items stay in the project, outside any block. */
    async remove(scope: WriteScope, projectId: string, developerIds: readonly string[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
      await writes.write(scope, async (trx) => {
        const project = await requireProject(trx, workspaceId, projectId);
        const found = targets(await blocksOf(trx, workspaceId, project.id), developerIds);
        const blockIds = found.map((b) => b.id);
        // Before the blocks go, so that the items' changes still name the block they left.
        const moved = await deps.detachFromBlocks(trx, workspaceId, blockIds);
        const deleted = changesOf(
          found.map((b) => ({
            identity: identity(b.id, b.developerId),
            before: fieldsOf(project, b.name),
            after: null,
          })),
        );
        return {
          changes: [...moved, ...deleted],
          apply: (trx) => repo.deleteBlocks(trx, workspaceId, blockIds),
          result: undefined,
        };
      });
    },

    /**
     * For the projects module, inside its write: deletes every block of `projects` (which are
     * being deleted) and answers a change for each. Their text items must be gone already.
     */
    async deleteBlocksOf(trx: Transaction<Database>, workspaceId: number, projects: readonly ProjectRef[]) {
      const projectIds = projects.map((p) => p.id);
      const blocks = [...(await loadBlocks(trx, workspaceId, projectIds)).values()];
      const projectOf = new Map(projects.map((p) => [p.id, p]));
      const blockIds = blocks.map((b) => b.id);
      await repo.deleteBlocks(trx, workspaceId, blockIds);
      return changesOf(
        blocks.map((b) => ({
          identity: identity(b.id, b.developerId),
          before: fieldsOf(projectOf.get(b.projectId) as ProjectRef, b.name),
          after: null,
        })),
      );
    },

    /** PUT /projectOrder: see `blocks.order.ts`. */
    setOrder: (scope: WriteScope, input: ProjectOrderInput) => setProjectOrder(deps, scope, input),
  };
}

export type BlocksService = ReturnType<typeof createBlocksService>;
