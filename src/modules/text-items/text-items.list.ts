import { badRequest } from '../../http/errors.js';
import type { RichTextMode } from '../../richtext/index.js';
import { type BlockRef, compareProjectOrder } from '../blocks/blocks.service.js';
import { baseNotFound, type ProjectRef, projectNotFound } from '../projects/projects.service.js';
import {
  byDeveloperId,
  type FilterContext,
  type FilterKey,
  type OwnerSelection,
  type ParsedFilter,
  parseFilter,
  type RecordContext,
  textStore as repo,
  resolveFilter,
  SnapshotCache,
  selectRecords,
  serializeRecords,
  showInstances,
  type TextEntity,
  type TextSelection,
} from '../texts/index.js';
import type { ListTextItemsQuery } from './text-items.schemas.js';
import type { TextItemsDeps } from './text-items.service.js';

const FILTER_KEYS: readonly FilterKey[] = [
  'projects',
  'bases',
  'variants',
  'statuses',
  'tags',
  'assignee',
  'integrated',
];

/** Texts and variant values held by the snapshots of all workspaces together (about 2 KB each). */
const MAX_CACHED_TEXTS = 200_000;

/** Items in both orders. */
interface Ordered {
  byId: TextEntity[];
  byProjectOrder: TextEntity[];
}

/** A workspace's text items as loaded for one revision, instances read through, with the JSON written so far. */
interface TextItemsSnapshot {
  all: Ordered;
  byContainer: Map<number, Ordered>;
  /** Developer ID -> project or base. */
  containers: Map<string, ProjectRef>;
  filterContext: FilterContext;
  recordContext: Omit<RecordContext, 'richText'>;
  isBaseItem: (entity: TextEntity) => boolean;
  extraJson: (entity: TextEntity) => string;
  json: Record<RichTextMode | 'plain', WeakMap<object, Buffer>>;
}

/** Containers by project developer ID (code units), then each project's custom order. */
function projectOrder(
  entities: readonly TextEntity[],
  developerIdOf: (containerId: number) => string,
  blocks: ReadonlyMap<number, BlockRef>,
) {
  const within = compareProjectOrder(blocks);
  return [...entities].sort((a, b) => {
    const pa = developerIdOf(a.row.project_id as number);
    const pb = developerIdOf(b.row.project_id as number);
    return pa < pb ? -1 : pa > pb ? 1 : within(a.row, b.row);
  });
}

async function loadSnapshot(deps: TextItemsDeps, workspaceId: number): Promise<TextItemsSnapshot> {
  const { db } = deps;
  const [stored, statuses, variants, variables, containers, blocks, userIds] = await Promise.all([
    repo.loadTexts(db, workspaceId, 'text_item'),
    deps.statuses.keys(db, workspaceId),
    deps.variants.listVariants(db, workspaceId),
    deps.variables.listVariables(db, workspaceId),
    deps.projects.listProjectRefs(db, workspaceId),
    deps.blocks.loadBlocks(db, workspaceId),
    deps.accounts.userIdsByEmail(workspaceId),
  ]);
  const byRowId = new Map(containers.map((c) => [c.id, c]));
  // The reads are not one transaction: an item whose container went meanwhile is left out.
  const shown = await showInstances(
    db,
    workspaceId,
    stored.filter((e) => byRowId.has(e.row.project_id as number)),
  );
  const entities = shown.map((s) => s.entity);
  const components = new Map(
    shown.flatMap((s) => (s.component ? [[s.component.row.id, s.component.row.developer_id]] : [])),
  );
  const container = (entity: TextEntity) => byRowId.get(entity.row.project_id as number) as ProjectRef;
  const itemIds = new Map(entities.map((e) => [e.row.id, e.row.developer_id]));
  const developerIdOf = (id: number) => byRowId.get(id)?.developerId ?? '';
  const order = (list: TextEntity[]): Ordered => ({
    byId: [...list].sort(byDeveloperId),
    byProjectOrder: projectOrder(list, developerIdOf, blocks),
  });
  const grouped = new Map<number, TextEntity[]>();
  for (const entity of entities) {
    const list = grouped.get(entity.row.project_id as number);
    if (list) list.push(entity);
    else grouped.set(entity.row.project_id as number, [entity]);
  }
  const str = JSON.stringify;

  return {
    all: order(entities),
    byContainer: new Map([...grouped].map(([id, list]) => [id, order(list)])),
    containers: new Map(containers.map((c) => [c.developerId, c])),
    filterContext: {
      statuses,
      variants: new Map(variants.map((v) => [v.developer_id, v.id])),
      userIds,
    },
    recordContext: {
      variantDeveloperIds: new Map(variants.map((v) => [v.id, v.developer_id])),
      variableNames: new Map(variables.map((v) => [v.id, v.name])),
      emails: new Map([...userIds].map(([email, id]) => [id, email])),
    },
    isBaseItem: (entity) => container(entity).kind === 'base',
    extraJson: (entity) => {
      const { row } = entity;
      const own = container(entity);
      const baseId = own.kind === 'base' ? own.developerId : own.baseId === null ? null : developerIdOf(own.baseId);
      const derivesFrom = row.base_text_item_id === null ? null : (itemIds.get(row.base_text_item_id) ?? null);
      const block = row.block_id === null ? null : (blocks.get(row.block_id)?.name ?? null);
      const component = row.component_id === null ? null : (components.get(row.component_id) ?? null);
      return `"projectId":${str(own.developerId)},"baseId":${str(baseId)},"baseTextItemId":${str(derivesFrom)},"blockName":${str(block)},"componentId":${str(component)}`;
    },
    json: { plain: new WeakMap(), html: new WeakMap(), html_paragraphs: new WeakMap() },
  };
}

/**
 * The containers a filter selects (rule 2 of GET /textItems): the listed projects and bases
 * together; neither listed means every project and no base (rule 1). Unknown ids are 400s.
 */
function selectedContainers(filter: ParsedFilter, containers: ReadonlyMap<string, ProjectRef>): Set<number> {
  if (!filter.projects && !filter.bases) {
    return new Set([...containers.values()].filter((c) => c.kind === 'project').map((c) => c.id));
  }
  const selected = new Set<number>();
  const pick = (ids: readonly string[], kind: ProjectRef['kind']) => {
    for (const [i, id] of ids.entries()) {
      const found = containers.get(id);
      if (found?.kind === kind) {
        selected.add(found.id);
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
  return selected;
}

function selectIn(
  snapshot: TextItemsSnapshot,
  parsed: ParsedFilter,
  sort: 'id' | 'project_order' | undefined,
): TextSelection {
  const chosen = selectedContainers(parsed, snapshot.containers);
  const filter = resolveFilter(parsed, snapshot.filterContext);
  const key = sort === 'project_order' ? 'byProjectOrder' : 'byId';
  // One container: its own list; several: the whole list, skipping the others.
  const [only] = chosen;
  const single = chosen.size === 1 && only !== undefined;
  const entities = single ? (snapshot.byContainer.get(only)?.[key] ?? []) : snapshot.all[key];
  const records = selectRecords(filter, snapshot.isBaseItem);
  const select = (entity: TextEntity): OwnerSelection | null =>
    single || chosen.has(entity.row.project_id as number) ? records(entity) : null;
  return { entities, select };
}

/**
 * GET /textItems as the bytes of a JSON array. Like GET /components, the workspace is loaded
 * once per revision into a snapshot (src/modules/texts/snapshot.ts), grouped by container and
 * sorted both ways, and the JSON of each item is written once per `richText` mode.
 */
export function createTextItemsReader(deps: TextItemsDeps) {
  const snapshots = new SnapshotCache<TextItemsSnapshot>(MAX_CACHED_TEXTS, (s) =>
    s.all.byId.reduce((sum, e) => sum + 1 + e.variants.length, 0),
  );

  const load = (workspaceId: number, revision: number) =>
    snapshots.get(String(workspaceId), revision, () => loadSnapshot(deps, workspaceId));

  /**
   * The items a parsed filter selects, in the requested order, with the records of each: shared
   * by the fetch and the export (src/modules/exports), so both read the same snapshot.
   */
  async function select(
    workspaceId: number,
    revision: number,
    parsed: ParsedFilter,
    sort: 'id' | 'project_order' | undefined,
  ): Promise<TextSelection> {
    return selectIn(await load(workspaceId, revision), parsed, sort);
  }

  async function list(
    workspaceId: number,
    revision: number,
    query: ListTextItemsQuery,
    maxFilterIds: number,
  ): Promise<Buffer> {
    const parsed = parseFilter(query.filter, FILTER_KEYS, maxFilterIds);
    const snapshot = await load(workspaceId, revision);
    const { entities, select: pick } = selectIn(snapshot, parsed, query.sort);
    const richText = query.richText ?? null;
    return serializeRecords(
      entities,
      { ...snapshot.recordContext, richText },
      pick,
      snapshot.extraJson,
      snapshot.json[richText ?? 'plain'],
    );
  }

  return { list, select };
}
