import { badRequest } from '../../http/errors.js';
import { variantNotFoundMessage } from './content.js';
import type { ParsedFilter } from './filter.parse.js';
import type { OwnerSelection, TextEntity, VariantValue } from './texts.types.js';

export { type FilterKey, type ParsedFilter, parseFilter } from './filter.parse.js';

/** What a filter's references are checked against: the workspace as it is. */
export interface FilterContext {
  statuses: ReadonlySet<string>;
  /** Variant developer ID -> row id. */
  variants: ReadonlyMap<string, number>;
  /** Lower-case email -> user row id. */
  userIds: ReadonlyMap<string, number>;
  /** Folder row ids a `folders` entry matches (null: the library root); undefined when unknown. */
  folderRowIds?: (developerId: string, excludeNested: boolean) => ReadonlySet<number | null> | undefined;
}

/** A filter with its references resolved to row ids. */
export interface ResolvedFilter {
  /** Folder row ids to keep (null: the library root); null means every folder. */
  folders: Set<number | null> | null;
  /** Base text is returned; `all`: every variant value; else the variants in `variantIds`. */
  base: boolean;
  allVariants: boolean;
  variantIds: Set<number>;
  statuses: Set<string> | null;
  /** undefined: no restriction; null: unassigned only. */
  assigneeId: number | null | undefined;
  tags: { values: string[]; operator: 'AND' | 'OR' } | null;
  integrated: boolean | null;
}

export function resolveFilter(filter: ParsedFilter, context: FilterContext): ResolvedFilter {
  let folders: Set<number | null> | null = null;
  if (filter.folders && context.folderRowIds) {
    folders = new Set();
    for (const { id, excludeNestedFolders } of filter.folders) {
      const ids = context.folderRowIds(id, excludeNestedFolders);
      if (!ids) throw badRequest(`Folder id not found: ${id}`);
      for (const rowId of ids) folders.add(rowId);
    }
  }

  const variants = filter.variants ?? ['base'];
  const variantIds = new Set<number>();
  for (const id of variants) {
    if (id === 'base' || id === 'all') continue;
    const rowId = context.variants.get(id);
    if (rowId === undefined) throw badRequest(variantNotFoundMessage(id));
    variantIds.add(rowId);
  }
  const allVariants = variants.includes('all');

  filter.statuses?.forEach((status, i) => {
    if (!context.statuses.has(status)) {
      throw badRequest(`filter.statuses[${i}]: '${status}' is not a status of the workspace`);
    }
  });

  let assigneeId: number | null | undefined;
  if (filter.assignee === null) assigneeId = null;
  else if (filter.assignee !== undefined) {
    assigneeId = context.userIds.get(filter.assignee.trim().toLowerCase());
    if (assigneeId === undefined) {
      throw badRequest(`filter.assignee: '${filter.assignee}' is not a user of the workspace`);
    }
  }

  return {
    folders,
    base: allVariants || variants.includes('base'),
    allVariants,
    variantIds,
    statuses: filter.statuses ? new Set(filter.statuses) : null,
    assigneeId,
    tags: filter.tags ?? null,
    integrated: filter.integrated ?? null,
  };
}

function tagsMatch(tags: readonly string[], filter: NonNullable<ResolvedFilter['tags']>): boolean {
  return filter.operator === 'AND'
    ? filter.values.every((tag) => tags.includes(tag))
    : filter.values.some((tag) => tags.includes(tag));
}

/**
 * The records of an entity that the filter keeps. Folder, tags and integrated belong to the base
 * and decide for every record; status and assignee are each text's own, and a variant record is
 * kept only when both the base and the variant match them (the API description). `exempt`
 * entities skip the status and assignee filters (base text items, for the text items fetch).
 */
export function selectRecords(
  filter: ResolvedFilter,
  exempt: (entity: TextEntity) => boolean = () => false,
): (entity: TextEntity) => OwnerSelection | null {
  const { statuses, assigneeId } = filter;
  const workflowMatches = (status: string, assignee: number | null) =>
    (statuses === null || statuses.has(status)) && (assigneeId === undefined || assigneeId === assignee);

  return (entity) => {
    if (filter.folders && entity.kind === 'component' && !filter.folders.has(entity.folderId)) return null;
    if (filter.integrated !== null && entity.integrated !== filter.integrated) return null;
    if (filter.tags && !tagsMatch(entity.tags, filter.tags)) return null;
    const free = exempt(entity);
    if (!free && !workflowMatches(entity.status, entity.assigneeId)) return null;
    let variants: VariantValue[] = entity.variants;
    if (!filter.allVariants) variants = variants.filter((v) => filter.variantIds.has(v.variantId));
    if (!free) variants = variants.filter((v) => workflowMatches(v.status, v.assigneeId));
    return { base: filter.base, variants };
  };
}
