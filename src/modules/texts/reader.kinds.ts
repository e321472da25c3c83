import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OpenSnapshot } from '../../db/snapshot.js';
import { badRequest } from '../../http/errors.js';
import { baseNotFound, projectNotFound } from '../../shared/not-found.js';
import { type FilterContext, type ResolvedFilter, resolveFilter } from './filter.js';
import type { ParsedFilter } from './filter.parse.js';
import { showInstances } from './instances.js';
import type { RecordContext } from './records.js';
import { compareDeveloperIds, loadSelection, type SqlSelection } from './selection.repository.js';
import type {
  AccountLookups,
  BlockLookups,
  BlockPlace,
  ContainerLookups,
  ContainerRef,
  FolderLookups,
  StatusKeys,
  VariableLookups,
  VariantLookups,
} from './texts.ports.js';
import { developerIdsByRowIds } from './texts.repository.js';
import type { Component, TextEntity, TextItem, TextKind, TextQuery } from './texts.types.js';

/** What the reader needs from the modules that own the tables a text refers to. */
export interface TextsReaderDeps {
  db: Kysely<Database>;
  statuses: StatusKeys;
  accounts: Pick<AccountLookups, 'userIdsByEmail'>;
  variants: Pick<VariantLookups, 'listVariants'>;
  variables: Pick<VariableLookups, 'listVariables'>;
  folders: FolderLookups;
  projects: ContainerLookups;
  blocks: BlockLookups;
  /** Opens the consistent read a large list is made from, page by page; without it, the shared connection. */
  snapshot?: OpenSnapshot;
}

/** The workspace as a read resolves its filter against, for both kinds. */
export interface ReadBasis {
  filterContext: FilterContext;
  recordContext: Omit<RecordContext, 'richText'>;
}

/** What a kind's read answers: its texts in response order, and how to write its own record fields. */
export interface KindRead {
  /** The query's filter, resolved against the workspace. */
  filter: ResolvedFilter;
  entities: TextEntity[];
  /** Texts the status and assignee filters do not apply to (text items of a base). */
  exempt?: (entity: TextEntity) => boolean;
  extraJson: (entity: TextEntity) => string;
}

/** The SQL part of a resolved filter that applies to every text read. */
export function sqlSelection(
  kind: TextKind,
  filter: ResolvedFilter,
  query: TextQuery,
  workflow: boolean,
): SqlSelection {
  return {
    kind,
    variantIds: filter.allVariants || query.allVariantValues ? 'all' : [...filter.variantIds],
    ...(query.contentOnly && { contentOnly: true }),
    ...(filter.integrated !== null && { integrated: filter.integrated }),
    ...(filter.folders && { folderIds: filter.folders }),
    ...(workflow && filter.statuses && { statuses: [...filter.statuses] }),
    ...(workflow && filter.assigneeId !== undefined && { assigneeId: filter.assigneeId }),
  };
}

const ROOT = 'root';
const str = JSON.stringify;

/** GET /components: folders in the filter and the SQL, `folderId` and `name` in the records. */
export async function readComponents(
  deps: TextsReaderDeps,
  workspaceId: number,
  query: TextQuery,
  common: Promise<ReadBasis>,
): Promise<KindRead> {
  const [basis, tree] = await Promise.all([common, deps.folders.loadFolderTree(deps.db, workspaceId)]);
  const filter = resolveFilter(query.filter, {
    ...basis.filterContext,
    // `root` is the components directly at the library root, not the whole tree below it.
    folderRowIds: (id, excludeNested) => (id === ROOT ? new Set([null]) : tree.rowIds(id, { excludeNested })),
  });
  const entities = await loadSelection(deps.db, workspaceId, sqlSelection('component', filter, query, true));
  return {
    filter,
    entities,
    extraJson: componentJson(tree),
  };
}

/** A component record's own fields: its folder and name. */
export const componentJson =
  (tree: { developerIdOf(folderId: number | null): string | null }) =>
  (entity: TextEntity): string => {
    const { folderId, name } = entity as Component;
    return `"folderId":${str(tree.developerIdOf(folderId))},"name":${str(name)}`;
  };

/**
 * The rank of a text item's block in its project's block order; items outside blocks (or in a
 * block missing from `blocks`) rank after every block. The project order sorts by project, this
 * rank, then position and row id.
 */
export const blockRank = (item: TextItem, blocks: ReadonlyMap<number, BlockPlace>): number =>
  item.blockId === null ? Number.MAX_SAFE_INTEGER : (blocks.get(item.blockId)?.rank ?? Number.MAX_SAFE_INTEGER);

/** What a text item record's own fields are written from: its container, derivation, block and component. */
export interface TextItemRefs {
  containers: ReadonlyMap<number, ContainerRef>;
  /** Row id -> developer ID of the text items the items derive from. */
  baseItems: ReadonlyMap<number, string>;
  blocks: ReadonlyMap<number, { name: string; developerId: string }>;
  /** Row id -> developer ID of the components the linked instances show. */
  components: ReadonlyMap<number, string>;
}

/** A text item record's own fields: project, base, derivation, block and component. */
export const textItemJson =
  ({ containers, baseItems, blocks, components }: TextItemRefs) =>
  (entity: TextEntity): string => {
    const item = entity as TextItem;
    const own = containers.get(item.projectId) as ContainerRef;
    const baseId =
      own.kind === 'base'
        ? own.developerId
        : own.baseId === null
          ? null
          : (containers.get(own.baseId)?.developerId ?? '');
    const derivesFrom = item.baseTextItemId === null ? null : (baseItems.get(item.baseTextItemId) ?? null);
    const block = item.blockId === null ? null : (blocks.get(item.blockId) ?? null);
    const component = item.componentId === null ? null : (components.get(item.componentId) ?? null);
    return `"projectId":${str(own.developerId)},"baseId":${str(baseId)},"baseTextItemId":${str(derivesFrom)},"blockName":${str(block?.name ?? null)},"blockId":${str(block?.developerId ?? null)},"componentId":${str(component)}`;
  };

/**
 * The containers a GET /textItems filter selects: the listed projects and bases together; neither
 * listed means every project and no base. An unknown id, or a base listed as a project (or the
 * reverse), is a 400 that says which list it belongs in.
 */
export function selectedContainers(filter: ParsedFilter, containers: readonly ContainerRef[]): ContainerRef[] {
  if (!filter.projects && !filter.bases) return containers.filter((c) => c.kind === 'project');
  const byDeveloperId = new Map(containers.map((c) => [c.developerId, c]));
  const selected = new Map<number, ContainerRef>();
  const pick = (ids: readonly string[], kind: ContainerRef['kind']) => {
    for (const [i, id] of ids.entries()) {
      const found = byDeveloperId.get(id);
      if (found?.kind === kind) {
        selected.set(found.id, found);
        continue;
      }
      const field = kind === 'project' ? 'projects' : 'bases';
      const message = kind === 'project' ? projectNotFound(id) : baseNotFound(id);
      const hint = found ? ` (${id} is a ${found.kind}: list it in filter.${found.kind}s)` : '';
      throw badRequest(`filter.${field}[${i}]: ${message}${hint}`);
    }
  };
  pick(filter.projects ?? [], 'project');
  pick(filter.bases ?? [], 'base');
  return [...selected.values()];
}

/**
 * GET /textItems: the projects and bases in the filter and the SQL; linked instances read
 * through from their components; `sort=project_order` orders by project developer ID, then each
 * project's blocks and item positions.
 */
export async function readTextItems(
  deps: TextsReaderDeps,
  workspaceId: number,
  query: TextQuery,
  common: Promise<ReadBasis>,
): Promise<KindRead> {
  const { db } = deps;
  const [basis, containers, blocks] = await Promise.all([
    common,
    deps.projects.listProjectRefs(db, workspaceId),
    deps.blocks.loadBlocks(db, workspaceId),
  ]);
  const chosen = selectedContainers(query.filter, containers);
  const filter = resolveFilter(query.filter, basis.filterContext);
  const byRowId = new Map(containers.map((c) => [c.id, c]));
  // Items of a base skip the status and assignee filters, so SQL applies them only without bases.
  const withBases = chosen.some((c) => c.kind === 'base');
  const selection = { ...sqlSelection('text_item', filter, query, !withBases), containerIds: chosen.map((c) => c.id) };
  const stored = (await loadSelection(db, workspaceId, selection)) as TextItem[];
  const shown = await showInstances(db, workspaceId, stored, selection.variantIds);
  let entities: TextItem[] = shown.map((s) => s.entity);
  const components = new Map(shown.flatMap((s) => (s.component ? [[s.component.id, s.component.developerId]] : [])));
  const derived = entities.flatMap((e) => e.baseTextItemId ?? []);
  const baseItems = derived.length > 0 ? await developerIdsByRowIds(db, workspaceId, derived) : new Map();
  const container = (item: TextItem) => byRowId.get(item.projectId) as ContainerRef;

  if (query.sort === 'project_order') {
    const keys = new Map(entities.map((e) => [e, [blockRank(e, blocks), e.position, e.id]]));
    entities = [...entities].sort((a, b) => {
      const byProject = compareDeveloperIds(container(a).developerId, container(b).developerId);
      const [rankA, positionA] = keys.get(a) as [number, number, number];
      const [rankB, positionB] = keys.get(b) as [number, number, number];
      return byProject || rankA - rankB || positionA - positionB || a.id - b.id;
    });
  }

  return {
    filter,
    entities,
    exempt: (entity) => container(entity as TextItem).kind === 'base',
    extraJson: textItemJson({ containers: byRowId, baseItems, blocks, components }),
  };
}
