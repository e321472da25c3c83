/**
 * Reads of frozen texts (a release's, docs/releases.md): the same filter rules, order and record
 * JSON as a read of the workspace (texts.reader.ts), applied to texts frozen with `freeze`
 * instead of rows. Pure: everything comes from the frozen data, nothing from the database.
 */
import type { FrozenBasis, FrozenTexts } from './frozen.types.js';
import type { ContainerRef, FolderTreeView } from './texts.ports.js';
import {
  blockRank,
  componentJson,
  type FilterContext,
  type RecordFormat,
  ROOT,
  resolveFilter,
  selectedContainers,
  selectRecords,
  serializeRecords,
  type TextQuery,
  type TextSelection,
  textItemJson,
} from './texts.reader.js';
import { compareDeveloperIds } from './texts.repository.js';
import type { TextEntity, TextItem } from './texts.types.js';

/** A frozen selection, with how its records write the kind's own fields. */
export interface FrozenSelection extends TextSelection {
  extraJson: (entity: TextEntity) => string;
}

/** The folder tree of frozen folders (as the folders module builds it from rows). */
function frozenTree(folders: FrozenBasis['folders']): FolderTreeView {
  const byRowId = new Map(folders.map((f) => [f.id, f]));
  const byDeveloperId = new Map(folders.map((f) => [f.developerId, f]));
  const children = new Map<number, number[]>();
  for (const folder of folders) {
    if (folder.parentId === null) continue;
    children.set(folder.parentId, [...(children.get(folder.parentId) ?? []), folder.id]);
  }
  return {
    folders,
    developerIdOf: (rowId) => (rowId === null ? null : (byRowId.get(rowId)?.developerId ?? null)),
    rowIds(developerId, options = {}) {
      const start = byDeveloperId.get(developerId);
      if (!start) return undefined;
      const ids = new Set([start.id]);
      if (options.excludeNested) return ids;
      const queue = [start.id];
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        for (const child of children.get(id) ?? []) {
          if (ids.has(child)) continue;
          ids.add(child);
          queue.push(child);
        }
      }
      return ids;
    },
  };
}

function filterContext(basis: FrozenBasis): FilterContext {
  return {
    statuses: new Set(basis.statuses),
    variants: new Map(basis.variants.map((v) => [v.developerId, v.id])),
    userIds: new Map(basis.users),
  };
}

/**
 * The frozen texts a query selects, in response order, as a read of the workspace would have
 * selected them when they were frozen: an unknown project, variant, status, folder or user (of
 * the frozen workspace) is the same 400.
 */
export function frozenSelection(frozen: FrozenTexts, query: TextQuery): FrozenSelection {
  const { basis } = frozen;
  if (query.kind === 'component') {
    const tree = frozenTree(basis.folders);
    const filter = resolveFilter(query.filter, {
      ...filterContext(basis),
      folderRowIds: (id, excludeNested) => (id === ROOT ? new Set([null]) : tree.rowIds(id, { excludeNested })),
    });
    return { entities: frozen.components, select: selectRecords(filter), extraJson: componentJson(tree) };
  }
  const containers: readonly ContainerRef[] = basis.containers;
  const chosen = new Set(selectedContainers(query.filter, containers).map((c) => c.id));
  const filter = resolveFilter(query.filter, filterContext(basis));
  const byRowId = new Map(containers.map((c) => [c.id, c]));
  const blocks = new Map(basis.blocks);
  const refs = new Map(basis.refs);
  const container = (item: TextItem) => byRowId.get(item.projectId) as ContainerRef;
  let entities = frozen.textItems.filter((item) => chosen.has(item.projectId));
  if (query.sort === 'project_order') {
    const keys = new Map(entities.map((e) => [e, [blockRank(e, blocks), e.position] as const]));
    entities = [...entities].sort((a, b) => {
      const byProject = compareDeveloperIds(container(a).developerId, container(b).developerId);
      const [rankA, positionA] = keys.get(a) as readonly [number, number];
      const [rankB, positionB] = keys.get(b) as readonly [number, number];
      return byProject || rankA - rankB || positionA - positionB || a.id - b.id;
    });
  }
  return {
    entities,
    select: selectRecords(filter, (entity) => container(entity as TextItem).kind === 'base'),
    extraJson: textItemJson({ containers: byRowId, baseItems: refs, blocks, components: refs }),
  };
}

/** The GET records of a query over frozen texts: the bytes of a JSON array, as GET /components or /textItems writes them. */
export function frozenRecords(frozen: FrozenTexts, query: TextQuery, format: RecordFormat): Buffer {
  const { basis } = frozen;
  const { entities, select, extraJson } = frozenSelection(frozen, query);
  return serializeRecords(
    entities,
    {
      variantDeveloperIds: new Map(basis.variants.map((v) => [v.id, v.developerId])),
      variableNames: new Map(basis.variables.map((v) => [v.id, v.name])),
      emails: new Map(basis.users.map(([email, id]) => [id, email])),
      richText: format.richText,
      etags: format.etags ?? false,
      ...(query.translationState && { translationStates: true }),
    },
    { select, extraJson },
  );
}
