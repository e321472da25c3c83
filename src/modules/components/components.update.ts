import { badRequest, notFound } from '../../http/errors.js';
import type { FolderTree } from '../folders/folders.service.js';
import {
  type Component,
  checkTextUpdates,
  type PluralForm,
  type UpdatePlan,
  type UpdateSubjects,
} from '../texts/index.js';
import type { ComponentUpdateInput } from './components.schemas.js';

export type { UpdatePlan };

export const componentNotFound = (developerId: string) =>
  notFound(`Component with developer ID ${developerId} not found`);

/** Checks a whole PATCH before anything is written; the first bad element is the error. */
export function checkComponentUpdates(
  updates: readonly ComponentUpdateInput[],
  subjects: UpdateSubjects & {
    /** The folder tree, when an update moves a component into a folder. */
    tree: FolderTree | null;
    /** Whether a component has the developer ID (plural-record collisions, renames). */
    exists: (developerId: string) => boolean;
    formsOf?: (developerId: string) => ReadonlySet<PluralForm> | undefined;
    maxTags?: number;
  },
): UpdatePlan[] {
  const { tree, exists, formsOf, maxTags } = subjects;
  return checkTextUpdates(updates, subjects, {
    notFound: componentNotFound,
    label: 'Component',
    exists,
    ...(formsOf && { formsOf }),
    ...(maxTags !== undefined && { maxTags }),
    own: (u, entity, at) => {
      const name = u.name !== undefined && u.name !== (entity as Component).name ? { name: u.name } : {};
      if (u.folderId === undefined) return name;
      const folderId = u.folderId === null || u.folderId === 'root' ? null : u.folderId;
      const folder = folderId === null ? null : tree?.byDeveloperId(folderId);
      if (folderId !== null && !folder) throw badRequest(`${at}.folderId: Folder id not found: ${folderId}`);
      return { ...name, folderId: folder?.id ?? null };
    },
  });
}
