import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { appendAll } from '../../shared/arrays.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { Change, WritePath, WriteScope } from '../changes/index.js';
import { changeOf, changesOf } from '../changes/index.js';
import type { TextCascades } from '../texts/index.js';
import { folderNotFound, type NewFolderInput, planNewFolders } from './folders.plan.js';
import * as repo from './folders.repository.js';
import { buildFolderTree, type FolderRef, type FolderTree, toFolderRef } from './folders.tree.js';
import { type FolderUpdateInput, planFolderUpdates } from './folders.update.js';

export { folderNotFound, ROOT_FOLDER_ID } from './folders.plan.js';
export type { FolderRef, FolderTree, FolderUpdateInput, NewFolderInput };

export interface Folder {
  id: string;
  name: string;
  parentId: string | null;
}

/** The folder tree of the workspace, for answering many folder questions with one query. */
export async function loadFolderTree(executor: Executor, workspaceId: number): Promise<FolderTree> {
  return buildFolderTree(await repo.listFolders(executor, workspaceId));
}

export async function resolveFolder(
  executor: Executor,
  workspaceId: number,
  developerId: string,
): Promise<FolderRef | null> {
  const row = await repo.findFolder(executor, workspaceId, developerId);
  return row ? toFolderRef(row) : null;
}

/**
 * Row ids of the folder and, unless `excludeNested`, every folder below it: what a components
 * filter on `folders` matches. Null when the folder does not exist.
 */
export async function folderRowIds(
  executor: Executor,
  workspaceId: number,
  developerId: string,
  options: { excludeNested?: boolean } = {},
): Promise<Set<number> | null> {
  return (await loadFolderTree(executor, workspaceId)).rowIds(developerId, options) ?? null;
}

/** Folder row id -> developer ID, for rendering `folderId` on component records. */
export async function folderDeveloperIds(executor: Executor, workspaceId: number): Promise<Map<number, string>> {
  return new Map((await repo.listFolders(executor, workspaceId)).map((row) => [row.id, row.developer_id]));
}

/** The change log's identity of a folder, and its fields as its GET record names them. */
const folderIdentity = (folder: { id: number; developerId: string }) => ({
  kind: 'folder' as const,
  ref: `folder:${folder.id}`,
  developerId: folder.developerId,
});
const folderFields = (name: string, parentId: string | null) => ({ name, parentId });

export interface FoldersDeps {
  db: Kysely<Database>;
  writes: WritePath;
  /** Moving the components of deleted folders (the texts module answers). */
  components: Pick<TextCascades, 'moveComponents'>;
}

export function createFoldersService(deps: FoldersDeps) {
  const { db, writes } = deps;

  return {
    loadFolderTree,
    resolveFolder,
    folderRowIds,
    folderDeveloperIds,

    async list(workspaceId: number): Promise<Folder[]> {
      const tree = await loadFolderTree(db, workspaceId);
      return tree.folders.map((f) => ({ id: f.developerId, name: f.name, parentId: tree.developerIdOf(f.parentId) }));
    },

    /** Creates the folders in request order, all or none; returns their developer IDs. */
    async create(scope: WriteScope, folders: readonly NewFolderInput[]): Promise<string[]> {
      const { workspaceId } = scope;
      assertDistinctIds(
        folders.map((folder) => folder.developerId),
        (index) => `folders[${index}].developerId`,
      );
      try {
        return await writes.write(scope, async (trx) => {
          const tree = await loadFolderTree(trx, workspaceId);
          const plan = planNewFolders(tree, folders);
          const createdAt = now();
          const newRowIds = new Map<string, number>();
          const changes: Change[] = [];
          for (const folder of plan) {
            let parentId: number | null = null;
            let parent: string | null = null;
            if (folder.parent && 'existing' in folder.parent) {
              parentId = folder.parent.existing;
              parent = tree.developerIdOf(parentId);
            } else if (folder.parent) {
              parentId = newRowIds.get(folder.parent.inRequest) ?? null;
              parent = folder.parent.inRequest;
            }
            const id = await repo.insertFolder(trx, workspaceId, { ...folder, parentId, createdAt });
            newRowIds.set(folder.developerId, id);
            const change = changeOf(
              folderIdentity({ id, developerId: folder.developerId }),
              null,
              folderFields(folder.name, parent),
            );
            if (change) changes.push(change);
          }
          return { changes, result: plan.map((f) => f.developerId) };
        });
      } catch (error) {
        // The workspace lock taken by the write path makes this a last line of defence only.
        if (isUniqueViolation(error))
          throw conflict('folders: a folder with one of these developer IDs already exists in workspace');
        throw error;
      }
    },

    /**
     * Renames, moves and gives new developer IDs to folders, all or none (see `planFolderUpdates`).
     * A new developer ID keeps the folder's history (it follows the row); a change of the parent
     * only is recorded as `moved`.
     */
    async update(scope: WriteScope, updates: readonly FolderUpdateInput[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(
        updates.map((u) => u.developerId),
        (index) => `updates[${index}].developerId`,
      );
      await writes.write(scope, async (trx) => {
        const tree = await loadFolderTree(trx, workspaceId);
        const planned = planFolderUpdates(tree, updates);
        const newIdOf = new Map(planned.map((p) => [p.folder.id, p.developerId]));
        const after = (rowId: number | null) =>
          rowId === null ? null : (newIdOf.get(rowId) ?? tree.developerIdOf(rowId));
        const changes: Change[] = [];
        for (const p of planned) {
          const { folder } = p;
          const renamed = p.developerId !== folder.developerId;
          // An unchanged parent renamed by the same request is not a change of this folder.
          const parentBefore = p.parentId === folder.parentId ? after(p.parentId) : tree.developerIdOf(folder.parentId);
          const before = {
            ...folderFields(folder.name, parentBefore),
            ...(renamed && { developerId: folder.developerId }),
          };
          const now = { ...folderFields(p.name, after(p.parentId)), ...(renamed && { developerId: p.developerId }) };
          const onlyMoved = !renamed && p.name === folder.name && p.parentId !== folder.parentId;
          const change = changeOf(
            folderIdentity({ id: folder.id, developerId: p.developerId }),
            before,
            now,
            onlyMoved ? 'moved' : undefined,
          );
          if (change) changes.push(change);
        }
        return {
          changes,
          apply: async (trx) => {
            for (const p of planned) {
              const { folder } = p;
              await repo.updateFolder(trx, workspaceId, folder.id, {
                ...(p.developerId !== folder.developerId && { developer_id: p.developerId }),
                ...(p.name !== folder.name && { name: p.name }),
                ...(p.parentId !== folder.parentId && { parent_id: p.parentId }),
              });
            }
          },
          result: undefined,
        };
      });
    },

    /**
     * Puts folders back under a parent and name, all or none (a restore undoes a folder's move
     * this way). A parent that is the folder itself or below it is a 400.
     */
    async place(
      scope: WriteScope,
      updates: readonly { developerId: string; name: string; parentId: string | null }[],
    ): Promise<void> {
      const { workspaceId } = scope;
      await writes.write(scope, async (trx) => {
        const tree = await loadFolderTree(trx, workspaceId);
        const parentOf = new Map(tree.folders.map((f) => [f.id, f.parentId]));
        const planned = updates.map((update, index) => {
          const folder = tree.byDeveloperId(update.developerId);
          if (!folder) throw notFound(folderNotFound(update.developerId));
          let parentId: number | null = null;
          if (update.parentId !== null) {
            const parent = tree.byDeveloperId(update.parentId);
            if (!parent) throw notFound(folderNotFound(update.parentId));
            parentId = parent.id;
          }
          parentOf.set(folder.id, parentId);
          return { folder, parentId, name: update.name, index };
        });
        for (const { folder, index } of planned) {
          const seen = new Set<number>();
          for (let at = parentOf.get(folder.id) ?? null; at !== null; at = parentOf.get(at) ?? null) {
            if (at === folder.id || seen.has(at)) {
              throw badRequest(`updates[${index}].parentId: a folder cannot be placed inside itself`);
            }
            seen.add(at);
          }
        }
        const changes = planned.flatMap(({ folder, parentId, name }) => {
          const before = folderFields(folder.name, tree.developerIdOf(folder.parentId));
          const after = folderFields(name, tree.developerIdOf(parentId));
          const moved = name === folder.name && parentId !== folder.parentId;
          const change = changeOf(folderIdentity(folder), before, after, moved ? 'moved' : undefined);
          return change ? [change] : [];
        });
        return {
          changes,
          apply: async (trx) => {
            for (const { folder, parentId, name } of planned) {
              await repo.placeFolder(trx, workspaceId, folder.id, { name, parentId });
            }
          },
          result: undefined,
        };
      });
    },

    /**
     * Deletes folders, all or none. What they hold (components and subfolders) moves to the nearest
     * ancestor that survives this request, or to the library root; each move is recorded as `moved`.
     */
    async remove(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
      await writes.write(scope, async (trx) => {
        const tree = await loadFolderTree(trx, workspaceId);
        const doomed = new Map<number, FolderRef>();
        for (const developerId of developerIds) {
          const folder = tree.byDeveloperId(developerId);
          if (!folder) throw notFound(folderNotFound(developerId));
          doomed.set(folder.id, folder);
        }
        const targetOf = (id: number) => tree.nearestAncestor(id, (candidate) => !doomed.has(candidate));
        const byTarget = new Map<number | null, number[]>();
        for (const id of doomed.keys()) byTarget.set(targetOf(id), [...(byTarget.get(targetOf(id)) ?? []), id]);

        const deleted = changesOf(
          [...doomed.values()].map((f) => ({
            identity: folderIdentity(f),
            before: folderFields(f.name, tree.developerIdOf(f.parentId)),
            after: null,
          })),
        );
        const subfolders = tree.folders.flatMap((f) => {
          if (f.parentId === null || !doomed.has(f.parentId) || doomed.has(f.id)) return [];
          const change = changeOf(
            folderIdentity(f),
            folderFields(f.name, tree.developerIdOf(f.parentId)),
            folderFields(f.name, tree.developerIdOf(targetOf(f.parentId))),
            'moved',
          );
          return change ? [change] : [];
        });
        // Before the folders go, so that the components' changes still name them.
        const components: Change[] = [];
        for (const [target, fromIds] of byTarget) {
          appendAll(components, await deps.components.moveComponents(trx, workspaceId, fromIds, target));
        }
        return {
          changes: [...deleted, ...subfolders, ...components],
          apply: async (trx) => {
            for (const [target, fromIds] of byTarget) await repo.moveSubfolders(trx, workspaceId, fromIds, target);
            await repo.deleteFolders(trx, workspaceId, [...doomed.keys()]);
          },
          result: undefined,
        };
      });
    },
  };
}

export type FoldersService = ReturnType<typeof createFoldersService>;
