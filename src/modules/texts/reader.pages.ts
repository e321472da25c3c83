import type { Executor } from '../../db/schema.js';
import { type ResolvedFilter, resolveFilter, selectRecords } from './filter.js';
import { showInstances } from './instances.js';
import { type ReadBasis, selectedContainers, sqlSelection, type TextsReaderDeps } from './reader.kinds.js';
import {
  compareDeveloperIds,
  containerPages,
  keyPages,
  type SqlSelection,
  selectionPages,
} from './selection.repository.js';
import type { ContainerRef } from './texts.ports.js';
import type { OwnerSelection, TextEntity, TextItem, TextKey, TextQuery, TextSelection } from './texts.types.js';

/** A paged read resolved: its SQL, how records are kept, and what a page of texts shows. */
export interface PagedRead {
  filter: ResolvedFilter;
  selection: SqlSelection;
  select: (entity: TextEntity) => OwnerSelection | null;
  shown: (entities: readonly TextEntity[]) => Promise<TextSelection>;
  /** Whether some selected texts skip the status and assignee filters (items of a base). */
  withBases: boolean;
  /** Text items in project order: the project refs, and each one's blocks in block order (row ids). */
  projectOrder: { ordered: ContainerRef[]; blocksOf: (containerId: number) => number[] } | null;
}

/** Resolves a paged query the way a fetch does: an unknown reference is a 400 here. */
export async function resolvePaged(
  deps: TextsReaderDeps,
  executor: Executor,
  workspaceId: number,
  query: TextQuery,
  basis: ReadBasis,
): Promise<PagedRead> {
  if (query.kind === 'component') {
    const tree = await deps.folders.loadFolderTree(executor, workspaceId);
    const filter = resolveFilter(query.filter, {
      ...basis.filterContext,
      folderRowIds: (id, excludeNested) => (id === 'root' ? new Set([null]) : tree.rowIds(id, { excludeNested })),
    });
    const select = selectRecords(filter);
    return {
      filter,
      selection: sqlSelection('component', filter, query, true),
      select,
      shown: async (entities) => ({ entities, select }),
      withBases: false,
      projectOrder: null,
    };
  }

  const [containers, blocks] = await Promise.all([
    deps.projects.listProjectRefs(executor, workspaceId),
    query.sort === 'project_order' ? deps.blocks.loadBlocks(executor, workspaceId) : null,
  ]);
  const chosen = selectedContainers(query.filter, containers);
  const filter = resolveFilter(query.filter, basis.filterContext);
  const byRowId = new Map(containers.map((c) => [c.id, c]));
  // Items of a base skip the status and assignee filters, so SQL applies them only without bases.
  const withBases = chosen.some((c) => c.kind === 'base');
  const selection = { ...sqlSelection('text_item', filter, query, !withBases), containerIds: chosen.map((c) => c.id) };
  const inBase = (entity: unknown) => (byRowId.get((entity as TextItem).projectId) as ContainerRef).kind === 'base';
  const select = selectRecords(filter, inBase);
  // Linked instances show their components' text, read with the page.
  const shown = async (entities: readonly TextEntity[]): Promise<TextSelection> => ({
    entities: (await showInstances(executor, workspaceId, entities as TextItem[], selection.variantIds)).map(
      (s) => s.entity,
    ),
    select,
  });
  // The project order: projects by developer ID, then each project's blocks in block order, the
  // items of each block by position, the items outside blocks last.
  const projectOrder =
    query.sort === 'project_order' && blocks !== null
      ? {
          ordered: [...chosen].sort((a, b) => compareDeveloperIds(a.developerId, b.developerId)),
          blocksOf: (containerId: number) =>
            [...blocks.entries()]
              .filter(([, block]) => block.projectId === containerId)
              .sort(([, a], [, b]) => a.rank - b.rank)
              .map(([id]) => id),
        }
      : null;
  return { filter, selection, select, shown, withBases, projectOrder };
}

/**
 * Paged reads, for answers too large to hold (the exports): the same query as a fetch, resolved
 * the same way (an unknown reference is a 400 before any page), then read a page at a time in
 * response order and never kept. `executor` is usually a snapshot, so the pages agree.
 */
export async function readPages(
  deps: TextsReaderDeps,
  executor: Executor,
  workspaceId: number,
  query: TextQuery,
  basis: ReadBasis,
): Promise<AsyncIterable<TextSelection>> {
  const read = await resolvePaged(deps, executor, workspaceId, query, basis);
  return mapPages(storedPages(executor, workspaceId, read), read.shown);
}

/**
 * The texts of a resolved read as stored (linked instances not yet showing their components),
 * page by page in response order: by developer ID, or with `sort=project_order` project by project,
 * each in its custom order (a page never holds two projects' texts).
 */
export function storedPages(executor: Executor, workspaceId: number, read: PagedRead): AsyncIterable<TextEntity[]> {
  if (!read.projectOrder) return selectionPages(executor, workspaceId, read.selection);
  const { ordered, blocksOf } = read.projectOrder;
  // A project is read block by block, each in pages.
  async function* projects() {
    for (const container of ordered) {
      yield* containerPages(executor, workspaceId, read.selection, container.id, blocksOf(container.id));
    }
  }
  return projects();
}

/**
 * The keys of the texts a read selects, page by page in developer-ID order: the same texts as
 * `readPages` (the filter's parts that SQL does not apply, tags and the exempt items of bases,
 * are applied to the narrow columns read), none of their content.
 */
export async function readKeys(
  deps: TextsReaderDeps,
  executor: Executor,
  workspaceId: number,
  query: TextQuery,
  basis: ReadBasis,
): Promise<AsyncIterable<TextKey[]>> {
  const read = await resolvePaged(deps, executor, workspaceId, query, basis);
  if (read.projectOrder) throw new Error('keys are read in developer-ID order only');
  async function* pages(): AsyncGenerator<TextKey[]> {
    for await (const rows of keyPages(executor, workspaceId, read.selection)) {
      const keys: TextKey[] = [];
      for (const row of rows) {
        // What `select` looks at: the text's place, flags, tags and workflow; no variant values.
        const entity = {
          kind: row.kind,
          developerId: row.developer_id,
          folderId: row.folder_id,
          projectId: row.project_id,
          integrated: Number(row.integrated) === 1,
          tags: row.tags === '[]' ? [] : (JSON.parse(row.tags) as string[]),
          status: row.status,
          assigneeId: row.assignee_id,
          variants: [],
        } as unknown as TextEntity;
        if (read.select(entity) === null) continue;
        keys.push({
          developerId: row.developer_id,
          folderId: row.folder_id,
          projectId: row.project_id,
          componentId: row.component_id,
        });
      }
      yield keys;
    }
  }
  return pages();
}

async function* mapPages<T>(
  pages: AsyncIterable<T[]>,
  map: (page: T[]) => Promise<TextSelection>,
): AsyncGenerator<TextSelection> {
  for await (const page of pages) yield await map(page);
}
