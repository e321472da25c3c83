import { badRequest, conflict, notFound } from '../../http/errors.js';
import { folderNotFound, ROOT_FOLDER_ID } from './folders.plan.js';
import type { FolderUpdateInput } from './folders.schemas.js';
import type { FolderRef, FolderTree } from './folders.tree.js';

export type { FolderUpdateInput };

/** One folder as an update leaves it. */
export interface PlannedFolderUpdate {
  folder: FolderRef;
  developerId: string;
  name: string;
  parentId: number | null;
}

/**
 * Checks a whole PATCH against the folder tree before anything is written, in request order:
 * an unknown folder is a 404, an unknown parent a 400; a new developer ID held by another folder
 * is a 409 (also when the same request renames that folder: a swap takes two requests). The tree
 * as the whole request leaves it must have no cycle (a folder moved into itself or below itself
 * is a 400 naming its `parentId`) and no two folders of one name under one parent (409).
 */
export function planFolderUpdates(tree: FolderTree, updates: readonly FolderUpdateInput[]): PlannedFolderUpdate[] {
  const newIds = new Map<string, number>();
  const planned = updates.map((update, index): PlannedFolderUpdate => {
    const at = `updates[${index}]`;
    const folder = tree.byDeveloperId(update.developerId);
    if (!folder) throw notFound(folderNotFound(update.developerId));
    let developerId = folder.developerId;
    const wanted = update.newDeveloperId;
    if (wanted !== undefined && wanted !== folder.developerId) {
      if (wanted === ROOT_FOLDER_ID) {
        throw badRequest(`${at}.newDeveloperId: '${ROOT_FOLDER_ID}' is reserved for the library root`);
      }
      if (tree.byDeveloperId(wanted)) {
        throw conflict(`${at}.newDeveloperId: Folder with developer ID ${wanted} already exists in workspace`);
      }
      const other = newIds.get(wanted);
      if (other !== undefined) {
        throw badRequest(`${at}.newDeveloperId: developer ID '${wanted}' is also given to updates[${other}]`);
      }
      newIds.set(wanted, index);
      developerId = wanted;
    }
    let parentId = folder.parentId;
    if (update.parentId !== undefined) {
      const parent = update.parentId === null || update.parentId === ROOT_FOLDER_ID ? null : update.parentId;
      if (parent === null) parentId = null;
      else {
        const found = tree.byDeveloperId(parent);
        if (!found) throw badRequest(`${at}.parentId: ${folderNotFound(parent)}`);
        parentId = found.id;
      }
    }
    return { folder, developerId, name: update.name ?? folder.name, parentId };
  });

  // The tree as the request leaves it.
  const byId = new Map<number, { parentId: number | null; name: string }>(
    tree.folders.map((f) => [f.id, { parentId: f.parentId, name: f.name }]),
  );
  for (const p of planned) byId.set(p.folder.id, { parentId: p.parentId, name: p.name });

  planned.forEach((p, index) => {
    if (p.parentId === p.folder.parentId) return;
    const seen = new Set<number>();
    for (let at: number | null = p.parentId; at !== null; at = byId.get(at)?.parentId ?? null) {
      if (at === p.folder.id) {
        const parent = tree.developerIdOf(p.parentId);
        throw badRequest(
          `updates[${index}].parentId: folder ${p.folder.developerId} cannot move into ${parent === p.folder.developerId ? 'itself' : `its own subfolder ${parent}`}`,
        );
      }
      if (seen.has(at)) break;
      seen.add(at);
    }
  });

  const siblings = new Map<string, number>();
  for (const f of byId.values()) {
    const key = JSON.stringify([f.parentId, f.name]);
    siblings.set(key, (siblings.get(key) ?? 0) + 1);
  }
  planned.forEach((p, index) => {
    if (p.parentId === p.folder.parentId && p.name === p.folder.name) return;
    if ((siblings.get(JSON.stringify([p.parentId, p.name])) ?? 0) > 1) {
      const under = p.parentId === null ? 'the library root' : `folder ${tree.developerIdOf(p.parentId)}`;
      const field = p.name !== p.folder.name ? 'name' : 'parentId';
      throw conflict(`updates[${index}].${field}: Folder ${p.name} already exists in workspace under ${under}`);
    }
  });
  return planned;
}
