/**
 * `GET /v2/textItems/rows`: the app's list of a project, a page at a time (docs/app-list.md).
 *
 * A request selects the project's items with the SQL filters (`listRowKeys`: a few narrow columns
 * per item), narrows them by tags and by the search index in memory, sorts them (the project's
 * custom order or developer ID) and answers one page: the rows a list shows, the total and the
 * page's position. The sorted keys are kept per workspace revision and query, so scrolling, the
 * next page and the poll of the window on screen read no text but the page's own.
 *
 * Paging: `offset` jumps (a scrollbar drag), `cursor` continues after the last row of a page by
 * its sort key rather than its position, so that items added or removed before it while a client
 * pages shift nothing: every item there throughout comes exactly once.
 */

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import type { BlockRef, BlocksService } from '../blocks/blocks.service.js';
import { refsAfterRevision } from '../changes/index.js';
import { type ProjectsService, projectNotFound } from '../projects/projects.service.js';
import {
  type AccountLookups,
  listRowKeys,
  loadTextsByRowIds,
  type RowKey,
  type RowKeyQuery,
  searchTextIds,
  showInstances,
  type TextItem,
  translationStateOf,
  type VariantLookups,
} from '../texts/index.js';
import type { RowsQuery } from './text-items.schemas.js';

/** A row of the list: what the app shows of an item without opening it. */
export interface ListRow {
  id: string;
  /** The base text (plain), cut at `ROW_TEXT_CHARS`. */
  text: string;
  status: string;
  assignee: string | null;
  tags: string[];
  blockId: string | null;
  blockName: string | null;
  componentId: string | null;
  plurals: boolean;
  /** The state of each variant the query's `states` named, by variant developer ID. */
  states: Record<string, 'missing' | 'outdated' | 'upToDate'>;
}

export interface RowsPage {
  /** Items that pass the filters. */
  total: number;
  /** Position of the first row in the filtered, sorted list. */
  offset: number;
  rows: ListRow[];
  /** Continues after the last row; null at the end. */
  nextCursor: string | null;
  /** With `facets=true`: per filter group, the items that pass the other groups and how many have each value. */
  facets?: Facets;
}

/** Per group: `total` items pass every other group; `values` counts each value among them. */
export type Facets = Record<string, { total: number; values: Record<string, number> }>;

/** A row's text is the start of the base text: the list shows one line, the editor reads the rest. */
const ROW_TEXT_CHARS = 200;
const DEFAULT_LIMIT = 100;
/**
 * Scans kept (one per workspace revision and project or block: about 150 bytes an item, so a few
 * MB at 100,000 items each), and filtered, sorted lists (one per query: an array of references).
 */
const KEPT_SCANS = 3;
const KEPT_ORDERS = 8;

export interface RowsDeps {
  db: Kysely<Database>;
  accounts: Pick<AccountLookups, 'userIdsByEmail'>;
  variants: Pick<VariantLookups, 'listVariants'>;
  projects: Pick<ProjectsService, 'resolveProjects' | 'resolveBases'>;
  blocks: Pick<BlocksService, 'loadBlocks'>;
  /** Brings the search index up to date with every committed write (for `q`). */
  indexUpToDate?: () => Promise<void>;
}

type SortKey = [number, number, number] | string;

interface Order {
  keys: RowKey[];
  sortKey: (k: RowKey) => SortKey;
  compare: (a: SortKey, b: SortKey) => number;
  tagsOf: (k: RowKey) => string[];
}

const OUTSIDE_BLOCKS = Number.MAX_SAFE_INTEGER;
const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean) ?? [];

function encodeCursor(sort: string, key: string | [number | null, number, number]): string {
  return Buffer.from(JSON.stringify({ s: sort, k: key })).toString('base64url');
}

/** A cursor's sort key, checked: a cursor of another sort, or not one at all, is a 400. */
function decodeCursor(sort: string, cursor: string): [number | null, number, number] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor: not a cursor this list gave');
  }
  const { s, k } = (parsed ?? {}) as { s?: unknown; k?: unknown };
  if (s !== sort) throw badRequest('cursor: given by a list of another sort; start again without it');
  if (sort === 'id' && typeof k === 'string') return k;
  if (
    sort === 'project_order' &&
    Array.isArray(k) &&
    k.length === 3 &&
    (k[0] === null || typeof k[0] === 'number') &&
    typeof k[1] === 'number' &&
    typeof k[2] === 'number'
  )
    return k as [number | null, number, number];
  throw badRequest('cursor: not a cursor this list gave');
}

/** The first index of `keys` (sorted by `compare`) whose key comes after `key`. */
function firstAfter(order: Order, key: SortKey): number {
  let low = 0;
  let high = order.keys.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (order.compare(order.sortKey(order.keys[mid] as RowKey), key) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Projects (or blocks) whose last scan is kept to be patched after a write. */
const KEPT_PLACES = 16;
/** The most texts a patch reads again; more changed than this and the project is scanned anew. */
const PATCH_MOST = 2000;
/** Writes of these kinds change no text item's key (comments, suggestions): a patch skips them. */
const KEYLESS_KINDS = new Set(['comment', 'suggestion']);

/**
 * The row ids of the text items the writes after `revision` touched, or null when a patch cannot
 * say: a write of another kind (which may change many items' keys at once) or too many texts.
 */
async function changedTexts(db: Kysely<Database>, workspaceId: number, revision: number): Promise<Set<number> | null> {
  const rows = await refsAfterRevision(db, workspaceId, revision, PATCH_MOST + 1);
  if (rows.length > PATCH_MOST) return null;
  const ids = new Set<number>();
  for (const row of rows) {
    if (KEYLESS_KINDS.has(row.kind)) continue;
    if (row.kind !== 'textItem') return null;
    const id = Number(row.record_ref.slice(row.record_ref.indexOf(':') + 1));
    if (!Number.isSafeInteger(id)) return null;
    ids.add(id);
  }
  return ids;
}

/** The groups of the list's filters: a facet counts the items that pass every other group. */
const GROUPS = ['status', 'assignee', 'tags', 'state', 'integrated', 'plurals', 'variables', 'ids', 'q'] as const;
type Group = (typeof GROUPS)[number];
type Test = (k: RowKey) => boolean;

export function createTextRows(deps: RowsDeps) {
  /** The project's (or block's) keys, per workspace revision: one narrow scan however the list is filtered. */
  const scans = new Map<string, Promise<RowKey[]>>();
  /** Filtered, sorted keys per query. */
  const orders = new Map<string, Promise<Order>>();

  function kept<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
    let value = map.get(key);
    if (value) {
      // Most recently used last: the oldest goes first.
      map.delete(key);
      map.set(key, value);
    } else {
      value = make();
      map.set(key, value);
      value.catch(() => map.delete(key));
      const most = map === scans ? KEPT_SCANS : KEPT_ORDERS;
      while (map.size > most) map.delete(map.keys().next().value as string);
    }
    return value;
  }

  /** The last scan of each project (or block) and variant, whatever its revision: what a write patches. */
  const latest = new Map<string, { revision: number; keys: Promise<RowKey[]> }>();

  /**
   * The keys of a project at `revision`. After a write, the scan of an earlier revision is patched
   * rather than made again: the change log says which texts the writes since touched, and only
   * those are read again (at 100,000 items a scan is most of a second; a patch a few ms). Writes of
   * anything but text items (a block, a component its instances show, a variant, the workflow)
   * or of more than PATCH_MOST texts scan again.
   */
  async function scan(workspaceId: number, revision: number, keyQuery: RowKeyQuery): Promise<RowKey[]> {
    const { db } = deps;
    const place = JSON.stringify([workspaceId, keyQuery]);
    const before = latest.get(place);
    let keys: Promise<RowKey[]>;
    if (before && before.revision < revision) {
      const earlier = before.keys;
      keys = (async () => {
        const changed = await changedTexts(db, workspaceId, before.revision);
        if (!changed) return listRowKeys(db, workspaceId, keyQuery);
        const [old, fresh] = await Promise.all([
          earlier,
          changed.size === 0 ? [] : listRowKeys(db, workspaceId, { ...keyQuery, textIds: [...changed] }),
        ]);
        return [...old.filter((k) => !changed.has(k.id)), ...fresh];
      })();
    } else {
      keys = listRowKeys(db, workspaceId, keyQuery);
    }
    if (!before || before.revision <= revision) {
      latest.set(place, { revision, keys });
      keys.catch(() => {
        if (latest.get(place)?.keys === keys) latest.delete(place);
      });
      while (latest.size > KEPT_PLACES) latest.delete(latest.keys().next().value as string);
    }
    return keys;
  }

  /** What a query resolves to: the project, its blocks, the scan and the tests of each filter group. */
  async function resolve(workspaceId: number, revision: number, query: RowsQuery) {
    const { db } = deps;
    const projectId = query.projectId;
    const container =
      (await deps.projects.resolveProjects(db, workspaceId, [projectId])).get(projectId) ??
      (await deps.projects.resolveBases(db, workspaceId, [projectId])).get(projectId);
    if (!container) throw badRequest(`projectId: ${projectNotFound(projectId)}`);
    const blocks = await deps.blocks.loadBlocks(db, workspaceId, [container.id]);
    const keyQuery: RowKeyQuery = { projectId: container.id };
    if (query.blockId !== undefined) {
      const block = [...blocks.values()].find((b) => b.developerId === query.blockId);
      if (!block) throw badRequest(`blockId: no block ${query.blockId} in project ${query.projectId}`);
      keyQuery.blockId = block.id;
    }
    if (query.state !== undefined && query.variant === undefined)
      throw badRequest('state: give the variant it is the state of (variant)');
    if (query.variant !== undefined) {
      const variant = (await deps.variants.listVariants(db, workspaceId)).find((v) => v.developerId === query.variant);
      if (!variant) throw badRequest(`variant: no variant ${query.variant}`);
      keyQuery.variantId = variant.id;
    }
    const tests: Partial<Record<Group, Test>> = {};
    const statuses = list(query.status);
    if (statuses.length > 0) tests.status = (k) => statuses.includes(k.status);
    if (query.assignee !== undefined && query.assignee !== '') {
      if (query.assignee === 'unassigned') tests.assignee = (k) => k.assigneeId === null;
      else {
        // Nobody of that email: nothing is assigned to them.
        const id = (await deps.accounts.userIdsByEmail(workspaceId)).get(query.assignee.trim().toLowerCase()) ?? -1;
        tests.assignee = (k) => k.assigneeId === id;
      }
    }
    const scanKey = JSON.stringify([workspaceId, revision, keyQuery]);
    const keys = await kept(scans, scanKey, () => scan(workspaceId, revision, keyQuery));
    // Most items share a handful of tag lists: each distinct one is parsed once.
    const parsed = new Map<string, string[]>();
    const tagsOf = (k: RowKey) => {
      let tags = parsed.get(k.tags);
      if (!tags) {
        const value: unknown = JSON.parse(k.tags);
        tags = Array.isArray(value) ? value.map(String) : [];
        parsed.set(k.tags, tags);
      }
      return tags;
    };
    const tags = list(query.tags);
    if (tags.length > 0) tests.tags = (k) => tags.every((t) => tagsOf(k).includes(t));
    if (query.state !== undefined) tests.state = (k) => k.state === query.state;
    const flag = (group: 'integrated' | 'plurals' | 'variables') => {
      const wanted = query[group];
      if (wanted !== undefined) tests[group] = (k) => k[group] === wanted;
    };
    flag('integrated');
    flag('plurals');
    flag('variables');
    if (query.ids !== undefined) {
      const ids = new Set(list(query.ids));
      tests.ids = (k) => ids.has(k.developerId);
    }
    if (query.q?.trim()) {
      await deps.indexUpToDate?.();
      const found = await searchTextIds(db, workspaceId, query.q);
      if (found) tests.q = (k) => found.has(k.id);
    }
    return { blocks, keys, tests, tagsOf, scanKey };
  }

  function sorted(
    keys: RowKey[],
    { sort, blocks, tagsOf }: { sort: string; blocks: Map<number, BlockRef>; tagsOf: Order['tagsOf'] },
  ): Order {
    if (sort === 'id') {
      const sortKey = (k: RowKey) => k.developerId;
      const compare = (a: SortKey, b: SortKey) => (a < b ? -1 : a > b ? 1 : 0);
      return { keys: [...keys].sort((a, b) => compare(a.developerId, b.developerId)), sortKey, compare, tagsOf };
    }
    // The project order: blocks in block order, each block's items by position and row id, then
    // the items outside blocks (as GET /textItems?sort=project_order answers them).
    const rank = (blockId: number | null) =>
      blockId === null ? OUTSIDE_BLOCKS : (blocks.get(blockId)?.rank ?? OUTSIDE_BLOCKS);
    const sortKey = (k: RowKey): SortKey => [rank(k.blockId), k.position, k.id];
    const compare = (a: SortKey, b: SortKey) => {
      const [x, y] = [a as number[], b as number[]];
      return (
        (x[0] as number) - (y[0] as number) ||
        (x[1] as number) - (y[1] as number) ||
        (x[2] as number) - (y[2] as number)
      );
    };
    const ranked = keys.map((k) => ({ k, key: sortKey(k) }));
    ranked.sort((a, b) => compare(a.key, b.key));
    return { keys: ranked.map((r) => r.k), sortKey, compare, tagsOf };
  }

  /** Per group, the items that pass every other group, and how many of them have each value. */
  function facetsOf(
    keys: readonly RowKey[],
    {
      tests,
      tagsOf,
      emails,
    }: { tests: Partial<Record<Group, Test>>; tagsOf: Order['tagsOf']; emails: Map<number, string> },
  ): Facets {
    const facets: Facets = {};
    const active = GROUPS.filter((g) => tests[g]);
    const count = (group: Group, valuesOf: (k: RowKey) => readonly string[], start: readonly string[] = []) => {
      const others = active.filter((g) => g !== group).map((g) => tests[g] as Test);
      const values: Record<string, number> = Object.fromEntries(start.map((v) => [v, 0]));
      let total = 0;
      for (const k of keys) {
        if (!others.every((t) => t(k))) continue;
        total += 1;
        for (const v of valuesOf(k)) values[v] = (values[v] ?? 0) + 1;
      }
      facets[group] = { total, values };
    };
    const allTags = new Set<string>();
    const seen = new Set<string>();
    for (const k of keys) {
      if (seen.has(k.tags)) continue;
      seen.add(k.tags);
      for (const t of tagsOf(k)) allTags.add(t);
    }
    count('status', (k) => [k.status]);
    count('assignee', (k) => [k.assigneeId === null ? 'unassigned' : (emails.get(k.assigneeId) ?? '')]);
    count('tags', tagsOf, [...allTags].sort());
    if (keys.some((k) => k.state !== undefined)) count('state', (k) => (k.state ? [k.state] : []));
    for (const group of ['integrated', 'plurals', 'variables'] as const) count(group, (k) => [String(k[group])]);
    return facets;
  }

  /** One page of the list, as `GET /textItems/rows` answers it. */
  async function rows(workspaceId: number, revision: number, query: RowsQuery, maxLimit: number): Promise<RowsPage> {
    const sort = query.sort ?? 'project_order';
    const limit = Math.min(query.limit ?? DEFAULT_LIMIT, maxLimit);
    const resolved = await resolve(workspaceId, revision, query);
    const { blocks, keys, tests, tagsOf } = resolved;
    const orderKey = JSON.stringify([
      resolved.scanKey,
      query.status ?? null,
      query.assignee ?? null,
      query.tags ?? null,
      query.state ?? null,
      query.integrated ?? null,
      query.plurals ?? null,
      query.variables ?? null,
      query.ids ?? null,
      query.q ?? null,
      sort,
    ]);
    const order = await kept(orders, orderKey, async () => {
      const all = Object.values(tests);
      return sorted(
        keys.filter((k) => all.every((t) => t(k))),
        { sort, blocks, tagsOf },
      );
    });
    let offset = Math.min(query.offset ?? 0, order.keys.length);
    if (query.cursor !== undefined) {
      const after = decodeCursor(sort, query.cursor);
      // The block of a cursor is ranked as the blocks stand now: a block moved meanwhile moves its items.
      const key: SortKey =
        typeof after === 'string'
          ? after
          : [after[0] === null ? OUTSIDE_BLOCKS : (blocks.get(after[0])?.rank ?? OUTSIDE_BLOCKS), after[1], after[2]];
      offset = firstAfter(order, key);
    }
    const page = order.keys.slice(offset, offset + limit);
    const last = page[page.length - 1];
    const nextCursor =
      last && offset + page.length < order.keys.length
        ? encodeCursor(sort, sort === 'id' ? last.developerId : [last.blockId, last.position, last.id])
        : null;
    const emails = await emailsOf(workspaceId);
    const answer: RowsPage = {
      total: order.keys.length,
      offset,
      rows: await rowsOf(workspaceId, { ids: page.map((k) => k.id), blocks, states: list(query.states), emails }),
      nextCursor,
    };
    if (query.facets) answer.facets = facetsOf(keys, { tests, tagsOf, emails });
    return answer;
  }

  async function emailsOf(workspaceId: number): Promise<Map<number, string>> {
    const userIds = await deps.accounts.userIdsByEmail(workspaceId);
    return new Map([...userIds].map(([email, id]) => [id, email]));
  }

  async function rowsOf(
    workspaceId: number,
    {
      ids,
      blocks,
      states,
      emails,
    }: { ids: number[]; blocks: Map<number, BlockRef>; states: string[]; emails: Map<number, string> },
  ): Promise<ListRow[]> {
    if (ids.length === 0) return [];
    const { db } = deps;
    const [loaded, variants] = await Promise.all([
      loadTextsByRowIds(db, workspaceId, 'text_item', ids),
      states.length > 0 ? deps.variants.listVariants(db, workspaceId) : Promise.resolve([]),
    ]);
    const shown = await showInstances(db, workspaceId, loaded);
    const byId = new Map(shown.map((s) => [s.entity.id, s]));
    const wanted = states.flatMap((developerId) => {
      const variant = variants.find((v) => v.developerId === developerId);
      return variant ? [variant] : [];
    });
    return ids.flatMap((id) => {
      const s = byId.get(id);
      if (!s) return [];
      const item: TextItem = s.entity;
      const block = item.blockId === null ? undefined : blocks.get(item.blockId);
      const row: ListRow = {
        id: item.developerId,
        text: [...item.text].slice(0, ROW_TEXT_CHARS).join(''),
        status: item.status,
        assignee: item.assigneeId === null ? null : (emails.get(item.assigneeId) ?? null),
        tags: item.tags,
        blockId: block?.developerId ?? null,
        blockName: block?.name ?? null,
        componentId: s.component?.developerId ?? null,
        plurals: (item.plurals?.length ?? 0) > 0,
        states: Object.fromEntries(
          wanted.map((v) => [
            v.developerId,
            translationStateOf(
              item,
              item.variants.find((x) => x.variantId === v.id),
            ),
          ]),
        ),
      };
      return [row];
    });
  }

  return { rows };
}

export type TextRows = ReturnType<typeof createTextRows>;
