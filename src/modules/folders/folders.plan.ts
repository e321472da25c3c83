import { badRequest, conflict } from '../../http/errors.js';
import { slugify, uniqueDeveloperId } from '../../shared/developer-id.js';
import type { NewFolderInput } from './folders.schemas.js';
import type { FolderTree } from './folders.tree.js';

export type { NewFolderInput };

/** Reserved: in filters and moves it names the library root, never a folder. */
export const ROOT_FOLDER_ID = 'root';

export const folderNotFound = (developerId: string) => `Folder id not found: ${developerId}`;

export interface PlannedFolder {
  developerId: string;
  name: string;
  parent: { existing: number } | { inRequest: string } | null;
}

/** Checks the whole batch against the workspace before anything is written. */
export function planNewFolders(tree: FolderTree, folders: readonly NewFolderInput[]): PlannedFolder[] {
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
    } else if (existing.has(developerId)) {
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
