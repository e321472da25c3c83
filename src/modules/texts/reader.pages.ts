import type { Executor } from '../../db/schema.js';
import type { ProjectRef } from '../projects/projects.service.js';
import { resolveFilter, selectRecords } from './filter.js';
import { showInstances } from './instances.js';
import { type ReadBasis, selectedContainers, sqlSelection, type TextsReaderDeps } from './reader.kinds.js';
import { compareDeveloperIds, containerTexts, selectionPages } from './selection.repository.js';
import type { TextItem, TextQuery, TextSelection } from './texts.types.js';

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
  if (query.kind === 'component') {
    const tree = await deps.folders.loadFolderTree(executor, workspaceId);
    const filter = resolveFilter(query.filter, {
      ...basis.filterContext,
      folderRowIds: (id, excludeNested) => (id === 'root' ? new Set([null]) : tree.rowIds(id, { excludeNested })),
    });
    const select = selectRecords(filter);
    const pages = selectionPages(executor, workspaceId, sqlSelection('component', filter, query, true));
    return mapPages(pages, async (entities) => ({ entities, select }));
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
  const inBase = (entity: unknown) => (byRowId.get((entity as TextItem).projectId) as ProjectRef).kind === 'base';
  const select = selectRecords(filter, inBase);
  // Linked instances show their components' text, read with the page.
  const shown = async (entities: readonly unknown[]): Promise<TextSelection> => ({
    entities: (await showInstances(executor, workspaceId, entities as TextItem[], selection.variantIds)).map(
      (s) => s.entity,
    ),
    select,
  });

  if (query.sort !== 'project_order' || blocks === null) {
    return mapPages(selectionPages(executor, workspaceId, selection), shown);
  }
  // The project order: projects by developer ID, then each project's blocks in block order, the
  // items of each block by position, the items outside blocks last. A project is one page.
  const rank = (item: TextItem) =>
    item.blockId === null ? Number.MAX_SAFE_INTEGER : (blocks.get(item.blockId)?.rank ?? Number.MAX_SAFE_INTEGER);
  const ordered = [...chosen].sort((a, b) => compareDeveloperIds(a.developerId, b.developerId));
  async function* projects() {
    for (const container of ordered) {
      const items = (await containerTexts(executor, workspaceId, selection, container.id)) as TextItem[];
      // Stable: within a block, the database's order by position and row id stays.
      const ranks = new Map(items.map((item) => [item, rank(item)]));
      items.sort((a, b) => (ranks.get(a) as number) - (ranks.get(b) as number));
      if (items.length > 0) yield items;
    }
  }
  return mapPages(projects(), shown);
}

async function* mapPages<T>(
  pages: AsyncIterable<T[]>,
  map: (page: T[]) => Promise<TextSelection>,
): AsyncGenerator<TextSelection> {
  for await (const page of pages) yield await map(page);
}
