import type { RichTextMode } from '../../richtext/index.js';
import {
  byDeveloperId,
  type FilterContext,
  type FilterKey,
  type ParsedFilter,
  parseFilter,
  type RecordContext,
  textStore as repo,
  resolveFilter,
  SnapshotCache,
  selectRecords,
  serializeRecords,
  type TextEntity,
  type TextSelection,
} from '../texts/index.js';
import type { ComponentsDeps } from './components.service.js';

const FILTER_KEYS: readonly FilterKey[] = ['folders', 'variants', 'statuses', 'tags', 'assignee', 'integrated'];
const ROOT = 'root';

/** Texts and variant values held by the snapshots of all workspaces together (about 2 KB each). */
const MAX_CACHED_TEXTS = 200_000;

export interface ListQuery {
  filter?: string;
  richText?: RichTextMode;
}

/** A workspace's components as loaded for one revision, with the JSON written for them so far. */
interface ComponentsSnapshot {
  entities: TextEntity[];
  filterContext: FilterContext;
  recordContext: Omit<RecordContext, 'richText'>;
  extraJson: (entity: TextEntity) => string;
  json: Record<RichTextMode | 'plain', WeakMap<object, Buffer>>;
}

async function loadSnapshot(deps: ComponentsDeps, workspaceId: number): Promise<ComponentsSnapshot> {
  const { db } = deps;
  const [entities, statuses, variants, variables, tree, userIds] = await Promise.all([
    repo.loadTexts(db, workspaceId, 'component'),
    deps.statuses.keys(db, workspaceId),
    deps.variants.listVariants(db, workspaceId),
    deps.variables.listVariables(db, workspaceId),
    deps.folders.loadFolderTree(db, workspaceId),
    deps.accounts.userIdsByEmail(workspaceId),
  ]);
  entities.sort(byDeveloperId);
  return {
    entities,
    filterContext: {
      statuses,
      variants: new Map(variants.map((v) => [v.developer_id, v.id])),
      userIds,
      // `root` is the components directly at the library root, not the whole tree below it.
      folderRowIds: (id, excludeNested) => (id === ROOT ? new Set([null]) : tree.rowIds(id, { excludeNested })),
    },
    recordContext: {
      variantDeveloperIds: new Map(variants.map((v) => [v.id, v.developer_id])),
      variableNames: new Map(variables.map((v) => [v.id, v.name])),
      emails: new Map([...userIds].map(([email, id]) => [id, email])),
    },
    extraJson: (entity) =>
      `"folderId":${JSON.stringify(tree.developerIdOf(entity.row.folder_id))},"name":${JSON.stringify(entity.row.name ?? '')}`,
    json: { plain: new WeakMap(), html: new WeakMap(), html_paragraphs: new WeakMap() },
  };
}

/**
 * GET /components as the bytes of a JSON array: the largest response of the API. The workspace
 * is loaded in eight queries into a snapshot kept for its revision (src/modules/texts/snapshot.ts),
 * so later fetches (other filters, other variants, rich text) skip the database and reuse the
 * JSON already written.
 */
export function createComponentsReader(deps: ComponentsDeps) {
  const snapshots = new SnapshotCache<ComponentsSnapshot>(MAX_CACHED_TEXTS, (s) =>
    s.entities.reduce((sum, e) => sum + 1 + e.variants.length, 0),
  );

  const load = (workspaceId: number, revision: number) =>
    snapshots.get(String(workspaceId), revision, () => loadSnapshot(deps, workspaceId));

  /** The components a parsed filter selects, by developer ID: shared with the export (src/modules/exports). */
  async function select(workspaceId: number, revision: number, parsed: ParsedFilter): Promise<TextSelection> {
    const snapshot = await load(workspaceId, revision);
    return { entities: snapshot.entities, select: selectRecords(resolveFilter(parsed, snapshot.filterContext)) };
  }

  async function list(workspaceId: number, revision: number, query: ListQuery, maxFilterIds: number): Promise<Buffer> {
    const parsed = parseFilter(query.filter, FILTER_KEYS, maxFilterIds);
    const snapshot = await load(workspaceId, revision);
    const filter = resolveFilter(parsed, snapshot.filterContext);
    const richText = query.richText ?? null;
    return serializeRecords(
      snapshot.entities,
      { ...snapshot.recordContext, richText },
      selectRecords(filter),
      snapshot.extraJson,
      snapshot.json[richText ?? 'plain'],
    );
  }

  return { list, select };
}
