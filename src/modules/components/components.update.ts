import { badRequest, notFound } from '../../http/errors.js';
import type { FolderTree } from '../folders/folders.service.js';
import {
  type Component,
  type PluralForm,
  planUpdates as planContentUpdates,
  type TextEntity,
  type UpdatePlan,
  type VariantRef,
  type WriteContext,
} from '../texts/index.js';
import type { ComponentUpdateInput } from './components.schemas.js';

export type { UpdatePlan };

export const componentNotFound = (developerId: string) =>
  notFound(`Component with developer ID ${developerId} not found`);

/** Checks a whole PATCH before anything is written; the first bad element is the error. */
export function planUpdates(
  updates: readonly ComponentUpdateInput[],
  entities: ReadonlyMap<string, TextEntity>,
  variant: VariantRef | null,
  context: WriteContext,
  tree: FolderTree | null,
  componentExists: (developerId: string) => boolean,
  more: { formsOf?: (developerId: string) => ReadonlySet<PluralForm> | undefined; maxTags?: number } = {},
): UpdatePlan[] {
  return planContentUpdates(updates, entities, variant, context, {
    notFound: componentNotFound,
    label: 'Component',
    exists: componentExists,
    ...more,
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
