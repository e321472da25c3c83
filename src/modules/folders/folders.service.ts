import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database, Executor } from '../../db/schema.js';
import { now, writeTransaction } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { slugify, uniqueDeveloperId } from '../shared/developer-id.js';
import * as repo from './folders.repository.js';
import { buildFolderTree, type FolderRef, type FolderTree, toFolderRef } from './folders.tree.js';

export type { FolderRef, FolderTree };

/** Reserved (contract section 2): in filters and moves it names the library root, never a folder. */
export const ROOT_FOLDER_ID = 'root';

export interface Folder {
  id: string;
  name: string;
  parentId: string | null;
}

export interface NewFolderInput {
  name: string;
  developerId?: string;
  /** A folder that exists, or one created earlier in the same request; null, omitted or `root`: the library root. */
  parentId?: string | null;
}

export const folderNotFound = (developerId: string) => `Folder id not found: ${developerId}`;

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

interface PlannedFolder {
  developerId: string;
  name: string;
  parent: { existing: number } | { inRequest: string } | null;
}

/** Checks the whole batch against the workspace before anything is written. */
function planCreate(tree: FolderTree, folders: readonly NewFolderInput[]): PlannedFolder[] {
  const existing = new Set(tree.folders.map((f) => f.developerId));
  // Generated ids avoid every id the request names explicitly, wherever it names it.
  const taken = new Set([...existing, ROOT_FOLDER_ID, ...folders.flatMap((f) => f.developerId ?? [])]);
  const inRequest = new Set<string>();
  const siblingKey = (parent: string | null, name: string) => JSON.stringify([parent, name]);
  const siblingNames = new Set(tree.folders.map((f) => siblingKey(tree.developerIdOf(f.parentId), f.name)));

  return folders.map((folder, index) => {
    const at = `folders[${index}]`;
    let developerId = folder.developerId;
    if (developerId === undefined) {
      developerId = uniqueDeveloperId(slugify(folder.name), taken);
    } else if (developerId === ROOT_FOLDER_ID) {
      throw badRequest(`${at}.developerId: '${ROOT_FOLDER_ID}' is reserved for the library root`);
    } else if (existing.has(developerId) || inRequest.has(developerId)) {
      throw conflict(`${at}.developerId: Folder with developer ID ${developerId} already exists in workspace`);
    }

    const parentId = folder.parentId === ROOT_FOLDER_ID ? null : (folder.parentId ?? null);
    let parent: PlannedFolder['parent'] = null;
    if (parentId !== null) {
      const found = tree.byDeveloperId(parentId);
      if (found) parent = { existing: found.id };
      else if (inRequest.has(parentId)) parent = { inRequest: parentId };
      else throw badRequest(`${at}.parentId: ${folderNotFound(parentId)}`);
    }

    const key = siblingKey(parentId, folder.name);
    if (siblingNames.has(key)) {
      const under = parentId === null ? 'the library root' : `folder ${parentId}`;
      throw conflict(`${at}.name: Folder ${folder.name} already exists in workspace under ${under}`);
    }
    siblingNames.add(key);
    inRequest.add(developerId);
    return { developerId, name: folder.name, parent };
  });
}

export function createFoldersService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

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
    async create(workspaceId: number, folders: readonly NewFolderInput[]): Promise<string[]> {
      try {
        return await writeTransaction(db, workspaceId, async (trx) => {
          const plan = planCreate(await loadFolderTree(trx, workspaceId), folders);
          const createdAt = now();
          const newRowIds = new Map<string, number>();
          for (const folder of plan) {
            let parentId: number | null = null;
            if (folder.parent && 'existing' in folder.parent) parentId = folder.parent.existing;
            else if (folder.parent) parentId = newRowIds.get(folder.parent.inRequest) ?? null;
            const id = await repo.insertFolder(trx, workspaceId, { ...folder, parentId, createdAt });
            newRowIds.set(folder.developerId, id);
          }
          return plan.map((f) => f.developerId);
        });
      } catch (error) {
        // The workspace lock taken by writeTransaction makes this a last line of defence only.
        if (isUniqueViolation(error))
          throw conflict('folders: a folder with one of these developer IDs already exists in workspace');
        throw error;
      }
    },

    /**
     * Deletes folders, all or none. What they hold (components and subfolders) moves to the nearest
     * ancestor that survives this request, or to the library root.
     */
    async remove(workspaceId: number, developerIds: readonly string[]): Promise<void> {
      const seen = new Set<string>();
      developerIds.forEach((id, index) => {
        if (seen.has(id)) throw badRequest(`developerIds[${index}]: duplicate developer ID '${id}'`);
        seen.add(id);
      });
      await writeTransaction(db, workspaceId, async (trx) => {
        const tree = await loadFolderTree(trx, workspaceId);
        const doomed = new Set<number>();
        for (const developerId of developerIds) {
          const folder = tree.byDeveloperId(developerId);
          if (!folder) throw notFound(folderNotFound(developerId));
          doomed.add(folder.id);
        }
        const byTarget = new Map<number | null, number[]>();
        for (const id of doomed) {
          const target = tree.nearestAncestor(id, (candidate) => !doomed.has(candidate));
          byTarget.set(target, [...(byTarget.get(target) ?? []), id]);
        }
        for (const [target, fromIds] of byTarget) {
          await repo.moveComponents(trx, workspaceId, fromIds, target);
          await repo.moveSubfolders(trx, workspaceId, fromIds, target);
        }
        await repo.deleteFolders(trx, workspaceId, [...doomed]);
      });
    },
  };
}

export type FoldersService = ReturnType<typeof createFoldersService>;
