/**
 * The one reader of components and text items, in one file, read top-down: its interface (what
 * the modules around the core call, what a read asks and answers), what it needs of those
 * modules, the reader itself (`createTextsReader`: kept reads, pages, keys, records), then its
 * stages in the order a read goes through them:
 *
 * 1. the `filter` query parameter: parsed (`parseFilter`, called by the services and the
 *    exports), resolved against the workspace, applied to each text's records;
 * 2. each kind's read of a fetch (`readComponents`, `readTextItems`): the filter resolved, the
 *    SQL (texts.repository.ts), linked instances shown, the kind's own record fields;
 * 3. paged reads (`resolvePaged`, `readPages`, `readKeys`): the same query a page at a time from
 *    a snapshot, for the exports and the large lists;
 * 4. the GET records written as they are read (`recordChunks`);
 * 5. the JSON of the records (`serializeRecords`, `recordsJson`; a text's ETag, `textEtag`);
 * 6. the reads kept per workspace revision (`SelectionCache`).
 */

import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { type Static, type TSchema, Type } from 'typebox';
import type { Database, Executor } from '../../db/schema.js';
import type { OpenSnapshot } from '../../db/snapshot.js';
import { bodyOf } from '../../http/cache/index.js';
import { badRequest } from '../../http/errors.js';
import { findUnstorableText } from '../../http/storable-text.js';
import { compileStrict, describeSchemaError } from '../../http/validation.js';
import { type RichTextMode, richTextOf } from '../../richtext/index.js';
import { nextTurn } from '../../shared/next-turn.js';
import { baseNotFound, projectNotFound, variantNotFoundMessage } from '../../shared/not-found.js';
import { usedVariables } from '../../text/placeholders.js';
import type { FrozenBasis, FrozenTexts } from './frozen.types.js';
import { inCldrOrder, pluralRecordId } from './plurals.js';
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
import {
  compareDeveloperIds,
  containerPages,
  developerIdsByRowIds,
  keyPages,
  loadSelection,
  type SqlSelection,
  selectionPages,
  showInstances,
} from './texts.repository.js';
import {
  type Component,
  type OwnerSelection,
  type PluralForm,
  type TextEntity,
  type TextItem,
  type TextKind,
  type TextOfKind,
  type TextValue,
  translationStateOf,
  type VariantValue,
} from './texts.types.js';

// What the modules around the core call (`TextsReader`), what a read asks (`TextQuery`, with its
// `ParsedFilter`) and what it answers (`TextSelection`, `TextKey`).

/** The one reader of components and text items, as the modules around it call it (`createTextsReader` below). */
export interface TextsReader {
  /** The texts a query selects, as domain types, in response order. */
  select<K extends TextKind>(
    workspaceId: number,
    revision: number,
    query: TextQuery<K>,
  ): Promise<TextSelection<TextOfKind<K>>>;
  /**
   * The texts a query selects, page by page in response order, read through `executor` (a
   * snapshot, for pages that agree) and never kept. Resolves the query first: an unknown
   * reference is a 400 before any page is read.
   */
  pages<K extends TextKind>(
    executor: Executor,
    workspaceId: number,
    query: TextQuery<K>,
  ): Promise<AsyncIterable<TextSelection<TextOfKind<K>>>>;
  /**
   * The keys of the texts a query selects (the same texts as `pages`, in the same order), page by
   * page, through `executor`; resolved first as `pages` is. Reads a few narrow columns, no text
   * and no values: much less than `pages` for a pass over a whole selection.
   */
  keys<K extends TextKind>(
    executor: Executor,
    workspaceId: number,
    query: TextQuery<K>,
  ): Promise<AsyncIterable<TextKey[]>>;
  /** The GET records of a query as the bytes of a JSON array (read as `recordStream` reads them). */
  records(workspaceId: number, revision: number, query: TextQuery, format: RecordFormat): Promise<Buffer>;
  /**
   * The GET records of a query as a JSON array: its bytes, or for a large list a stream of them
   * read page by page from one snapshot (never the whole selection in memory).
   */
  recordStream(
    workspaceId: number,
    revision: number,
    query: TextQuery,
    format: RecordFormat,
  ): Promise<Buffer | Readable>;
  /**
   * The texts each filter selects, with everything their reads refer to, as plain data that a
   * release stores and reads back (`frozenSelection`, `frozenRecords`, frozen.ts): read through
   * `executor` (a snapshot, so both kinds agree), every selected variant value loaded.
   */
  freeze(executor: Executor, workspaceId: number, filters: FreezeFilters): Promise<FrozenTexts>;
}

/** How the GET records of a read are written. */
export interface RecordFormat {
  /** Set when the request asked for `richText`. */
  richText: RichTextMode | null;
  /** Whether each record carries its text's ETag (`withEtag=true`); false when absent. */
  etags?: boolean;
}

/**
 * What a read asks the texts core for: one kind, the request's filter (already parsed), and for
 * text items the order. The reader selects in SQL what it can (kind, containers or folders,
 * integrated, base status and assignee, the variant values the filter names) and the rest
 * (tags, variant status) as it walks the result.
 */
export interface TextQuery<K extends TextKind = TextKind> {
  kind: K;
  filter: ParsedFilter;
  /** Text items: `id` (developer ID, the default) or the projects' custom order. */
  sort?: 'id' | 'project_order';
  /**
   * Also load every variant value, not only those the filter selects (the Swift driver's
   * accessors take their arguments from all of them). `select` still answers the filter.
   */
  allVariantValues?: boolean;
  /**
   * GET records also say each variant value's translation state (`withTranslationState=true`):
   * every variant value is then loaded, whatever the filter, and `select` still answers the filter.
   */
  translationState?: boolean;
  /**
   * Pages for a file (the exports): only the columns a file and the filters read are loaded; a
   * text's name, block, position, character limit, revision and versions keep default values.
   */
  contentOnly?: boolean;
}

/** The keys a `filter` query parameter may have; each route allows some (`parseFilter`, below). */
export type FilterKey = 'folders' | 'projects' | 'bases' | 'variants' | 'statuses' | 'tags' | 'assignee' | 'integrated';

export interface ParsedFilter {
  folders?: { id: string; excludeNestedFolders: boolean }[];
  projects?: string[];
  bases?: string[];
  /** Variant developer IDs, `base` or `all`. */
  variants?: string[];
  statuses?: string[];
  tags?: { values: string[]; operator: 'AND' | 'OR' };
  /** An email, or null for unassigned; absent means no restriction. */
  assignee?: string | null;
  integrated?: boolean;
  /** Only these texts (developer IDs): set by a route's own parameter, never by the `filter` JSON. */
  developerIds?: string[];
}

/** What a release freezes of each kind: its filter, or null for none of that kind. */
export interface FreezeFilters {
  components: ParsedFilter | null;
  textItems: ParsedFilter | null;
}

/** The texts a fetch or export selected, in response order, and the records wanted of each. */
export interface TextSelection<T extends TextEntity = TextEntity> {
  entities: readonly T[];
  /** A method, so that a selection of one kind is a selection of texts. */
  select(entity: T): OwnerSelection | null;
}

/**
 * A selected text as its key only (`TextsReader.keys`): what a reader that first needs every key
 * of a large selection (the Swift driver's accessor names) holds, and the places a caller may
 * narrow the selection by.
 */
export interface TextKey {
  developerId: string;
  /** Components: the folder's row id (null: the library root). */
  folderId: number | null;
  /** Text items: the project's or base's row id. */
  projectId: number | null;
  /** Text items: the component a linked instance reads through from. */
  componentId: number | null;
}

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

/**
 * One paged read of a query: what it reads through, for which workspace, and the workspace as
 * it resolves against.
 */
export interface PagedQuery {
  deps: TextsReaderDeps;
  /** Usually a snapshot, so the pages agree. */
  executor: Executor;
  workspaceId: number;
  query: TextQuery;
  basis: ReadBasis;
}

/** A selection as read for one revision, with the JSON written for its records so far. */
interface Read {
  entities: TextEntity[];
  select: (entity: TextEntity) => OwnerSelection | null;
  recordContext: Omit<RecordContext, 'richText' | 'etags'>;
  extraJson: (entity: TextEntity) => string;
  /** By rich text mode and whether ETags are written. */
  json: Map<string, WeakMap<object, Buffer>>;
}

/**
 * Bytes the kept reads of all workspaces may hold together, and one read: a read larger than that
 * (tens of thousands of texts) is read in pages for each request instead (`recordStream`), and
 * its answer kept, if small enough, by the response cache.
 */
const READ_CACHE_BYTES = 64 * 1024 * 1024;
const READ_CACHE_ENTRY_BYTES = 16 * 1024 * 1024;

/** What a value holds in memory, estimated: the objects, its strings and, later, its JSON. */
function valueBytes(value: TextValue): number {
  let chars = value.text.length + (value.richText?.length ?? 0) + value.notes.length;
  for (const plural of value.plurals ?? []) chars += plural.text.length + (plural.richText?.length ?? 0);
  return 600 + 4 * chars;
}

/** A read's estimated bytes: its texts and values, with the JSON written for them. */
function readBytes(read: Read): number {
  let bytes = 0;
  for (const entity of read.entities) {
    bytes += valueBytes(entity) + 200;
    for (const value of entity.variants) bytes += valueBytes(value);
  }
  return bytes;
}

/**
 * The one reader of components and text items: GET /components, GET /textItems, the exports, the
 * v0/v1 API and the Swift driver all read through it. A query is resolved against the workspace
 * (an unknown variant, status, folder, project or user is a 400), selected in SQL
 * (texts.repository.ts), and kept for the workspace's revision: every write advances the
 * revision in its transaction and authentication reads it, so a read kept for revision R holds
 * data at least as new as R. A repeated query at that revision (another `richText` mode, the
 * same export) reuses the texts and the JSON already written for them.
 */
export function createTextsReader(deps: TextsReaderDeps): TextsReader {
  const cache = new SelectionCache<Read>(
    { maxBytes: READ_CACHE_BYTES, maxEntryBytes: READ_CACHE_ENTRY_BYTES },
    readBytes,
  );

  async function basis(workspaceId: number, db: Executor = deps.db): Promise<ReadBasis> {
    const [statuses, variants, variables, userIds] = await Promise.all([
      deps.statuses.keys(db, workspaceId),
      deps.variants.listVariants(db, workspaceId),
      deps.variables.listVariables(db, workspaceId),
      deps.accounts.userIdsByEmail(workspaceId),
    ]);
    return {
      filterContext: { statuses, variants: new Map(variants.map((v) => [v.developerId, v.id])), userIds },
      recordContext: {
        variantDeveloperIds: new Map(variants.map((v) => [v.id, v.developerId])),
        variableNames: new Map(variables.map((v) => [v.id, v.name])),
        emails: new Map([...userIds].map(([email, id]) => [id, email])),
      },
    };
  }

  async function load(workspaceId: number, query: TextQuery): Promise<Read> {
    const common = basis(workspaceId);
    // A failed lookup must not leave the other promise unobserved.
    common.catch(() => undefined);
    const read = query.kind === 'component' ? readComponents : readTextItems;
    const kind = await read(deps, workspaceId, query, common);
    return {
      entities: kind.entities,
      select: selectRecords(kind.filter, kind.exempt),
      recordContext: (await common).recordContext,
      extraJson: kind.extraJson,
      json: new Map(),
    };
  }

  const keyOf = (workspaceId: number, q: TextQuery) =>
    `${workspaceId}:${q.kind}:${q.sort ?? 'id'}:${q.allVariantValues === true}:${JSON.stringify(q.filter)}`;

  // Translation states need every variant value; the read is then the same as one that asks
  // for all of them, and shared with it.
  const loadedQuery = (query: TextQuery): TextQuery => {
    const { translationState, ...rest } = query;
    return translationState ? { ...rest, allVariantValues: true } : query;
  };

  const get = (workspaceId: number, revision: number, query: TextQuery) => {
    const loaded = loadedQuery(query);
    return cache.get(keyOf(workspaceId, loaded), revision, () => load(workspaceId, loaded));
  };

  function serialize(read: Read, query: TextQuery, richText: RichTextMode | null, etags: boolean): Buffer {
    const states = query.translationState === true;
    const mode = `${richText ?? 'plain'}${etags ? '+etag' : ''}${states ? '+state' : ''}`;
    let json = read.json.get(mode);
    if (!json) {
      json = new WeakMap();
      read.json.set(mode, json);
    }
    return serializeRecords(
      read.entities,
      { ...read.recordContext, richText, etags, ...(states && { translationStates: true }) },
      { select: read.select, extraJson: read.extraJson },
      json,
    );
  }

  const reader: TextsReader = {
    async select<K extends TextKind>(workspaceId: number, revision: number, query: TextQuery<K>) {
      const { entities, select } = await get(workspaceId, revision, query);
      return { entities, select } as unknown as TextSelection<TextOfKind<K>>;
    },

    async pages<K extends TextKind>(executor: Executor, workspaceId: number, query: TextQuery<K>) {
      const pages = await readPages({ deps, executor, workspaceId, query, basis: await basis(workspaceId, executor) });
      return pages as AsyncIterable<TextSelection<TextOfKind<K>>>;
    },

    async keys<K extends TextKind>(executor: Executor, workspaceId: number, query: TextQuery<K>) {
      return readKeys({ deps, executor, workspaceId, query, basis: await basis(workspaceId, executor) });
    },

    async records(workspaceId: number, revision: number, query: TextQuery, format: RecordFormat) {
      const body = await reader.recordStream(workspaceId, revision, query, format);
      if (Buffer.isBuffer(body)) return body;
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },

    async freeze(executor: Executor, workspaceId: number, filters: FreezeFilters) {
      return freezeTexts({ deps, executor, workspaceId, basis: await basis(workspaceId, executor) }, filters);
    },

    async recordStream(workspaceId: number, revision: number, query: TextQuery, format: RecordFormat) {
      const { richText, etags = false } = format;
      const states = query.translationState === true;
      // A read kept for this revision answers at once (another mode of a recent small list).
      const kept = cache.peek(keyOf(workspaceId, loadedQuery(query)), revision);
      if (kept) return serialize(await kept, query, richText, etags);
      // Otherwise the list is read in pages from one snapshot and written as it is read.
      const snapshot = deps.snapshot ? await deps.snapshot() : { db: deps.db, close: async () => {} };
      try {
        const { db } = snapshot;
        const common = await basis(workspaceId, db);
        const context = { ...common.recordContext, richText, etags, ...(states && { translationStates: true }) };
        const chunks = await recordChunks(
          { deps, executor: db, workspaceId, query: loadedQuery(query), basis: common },
          context,
        );
        return await bodyOf(chunks, () => snapshot.close());
      } catch (error) {
        await snapshot.close();
        throw error;
      }
    },
  };
  return reader;
}

// 1. The filter: parsed by the services (`parseFilter`), resolved against the workspace here
// (`resolveFilter`: an unknown variant, status, user or folder is a 400), then applied to each
// text read (`selectRecords`). The `filter` query parameter is URL-encoded JSON, checked strictly
// against a schema of the route's keys (unknown keys and wrong types are 400s naming the field,
// as for bodies). Empty arrays mean "no restriction", so a client's default filter is the same as
// no filter.

const closed = { additionalProperties: false } as const;
const IdRef = Type.Object({ id: Type.String() }, closed);

function fieldSchemas(maxItems: number) {
  const list = <T extends TSchema>(item: T) => Type.Array(item, { maxItems });
  return {
    folders: list(Type.Object({ id: Type.String(), excludeNestedFolders: Type.Optional(Type.Boolean()) }, closed)),
    projects: list(IdRef),
    bases: list(IdRef),
    variants: list(IdRef),
    statuses: list(Type.String()),
    tags: Type.Object({ values: list(Type.String()), operator: Type.Optional(Type.Enum(['AND', 'OR'])) }, closed),
    assignee: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    integrated: Type.Boolean(),
  };
}

type FilterInput = Partial<Static<ReturnType<typeof Type.Object<ReturnType<typeof fieldSchemas>>>>>;
type Check = ReturnType<typeof compileStrict<{ filter: FilterInput }>>;

/** One compiled validator per set of keys and size limit (each route has one). */
const validators = new Map<string, Check>();

function validatorFor(allowed: readonly FilterKey[], maxIds: number): Check {
  const key = `${allowed.join(',')}:${maxIds}`;
  let check = validators.get(key);
  if (!check) {
    const fields = fieldSchemas(maxIds);
    const properties = Object.fromEntries(allowed.map((name) => [name, Type.Optional(fields[name])]));
    check = compileStrict(Type.Object({ filter: Type.Object(properties, closed) }));
    validators.set(key, check);
  }
  return check;
}

const ids = (list: { id: string }[] | undefined) => (list && list.length > 0 ? list.map((item) => item.id) : undefined);
const nonEmpty = <T>(list: T[] | undefined) => (list && list.length > 0 ? list : undefined);

/**
 * `hints` adds a word to the 400 of an unknown top-level key the caller expects people to try
 * (`filter.variants is not a known field of exports: ...`).
 */
export function parseFilter(
  raw: string | undefined,
  allowed: readonly FilterKey[],
  maxIds: number,
  hints: Partial<Record<FilterKey, string>> = {},
): ParsedFilter {
  if (raw === undefined || raw.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw badRequest(`filter is not valid JSON (${(error as Error).message})`);
  }
  // Wrapped, so that every message names its field from `filter`.
  const checked = validatorFor(allowed, maxIds)({ filter: json });
  if ('error' in checked) {
    const { error } = checked;
    const unknown = error.keyword === 'additionalProperties' && error.instancePath === '/filter';
    const hint = unknown ? hints[(error.params as { additionalProperty: FilterKey }).additionalProperty] : undefined;
    throw badRequest(`${describeSchemaError(error, 'filter')}${hint ? ` ${hint}` : ''}`);
  }
  const input = checked.value.filter;
  // JSON escapes inside the parameter get past the request's own check (`\u0000` is six characters there).
  const unstorable = findUnstorableText(checked.value, 'filter');
  if (unstorable) throw badRequest(unstorable);
  const filter: ParsedFilter = {
    folders: nonEmpty(input.folders)?.map((f) => ({ id: f.id, excludeNestedFolders: f.excludeNestedFolders ?? false })),
    projects: ids(input.projects),
    bases: ids(input.bases),
    variants: ids(input.variants),
    statuses: nonEmpty(input.statuses),
    tags:
      input.tags && input.tags.values.length > 0
        ? { values: input.tags.values, operator: input.tags.operator ?? 'OR' }
        : undefined,
    integrated: input.integrated,
  };
  if (input.assignee !== undefined) filter.assignee = input.assignee;
  for (const key of Object.keys(filter) as (keyof ParsedFilter)[]) if (filter[key] === undefined) delete filter[key];
  return filter;
}

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
  developerIds: string[] | null;
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
    developerIds: filter.developerIds ?? null,
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
    // A read of base text alone (most exports) loads no variant value: nothing to filter.
    if (variants.length > 0) {
      if (!filter.allVariants) variants = variants.filter((v) => filter.variantIds.has(v.variantId));
      if (!free) variants = variants.filter((v) => workflowMatches(v.status, v.assigneeId));
    }
    return { base: filter.base, variants };
  };
}

// 2. A fetch: each kind's read, and its own record fields.

/** What a kind's read answers: its texts in response order, and how to write its own record fields. */
interface KindRead {
  /** The query's filter, resolved against the workspace. */
  filter: ResolvedFilter;
  entities: TextEntity[];
  /** Texts the status and assignee filters do not apply to (text items of a base). */
  exempt?: (entity: TextEntity) => boolean;
  extraJson: (entity: TextEntity) => string;
}

/** The SQL part of a resolved filter that applies to every text read. */
function sqlSelection(kind: TextKind, filter: ResolvedFilter, query: TextQuery, workflow: boolean): SqlSelection {
  return {
    kind,
    variantIds: filter.allVariants || query.allVariantValues ? 'all' : [...filter.variantIds],
    ...(query.contentOnly && { contentOnly: true }),
    ...(filter.integrated !== null && { integrated: filter.integrated }),
    ...(filter.developerIds && { developerIds: filter.developerIds }),
    ...(filter.folders && { folderIds: filter.folders }),
    ...(workflow && filter.statuses && { statuses: [...filter.statuses] }),
    ...(workflow && filter.assigneeId !== undefined && { assigneeId: filter.assigneeId }),
  };
}

export const ROOT = 'root';
const str = JSON.stringify;

/** GET /components: folders in the filter and the SQL, `folderId` and `name` in the records. */
async function readComponents(
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
interface TextItemRefs {
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
async function readTextItems(
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

// 3. Paged reads: the same query a page at a time, never kept (the exports, large lists).

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
export async function resolvePaged(paged: PagedQuery): Promise<PagedRead> {
  const { deps, executor, workspaceId, query, basis } = paged;
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
async function readPages(paged: PagedQuery): Promise<AsyncIterable<TextSelection>> {
  const read = await resolvePaged(paged);
  return mapPages(storedPages(paged.executor, paged.workspaceId, read), read.shown);
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
      const blockIds = blocksOf(container.id);
      yield* containerPages(executor, workspaceId, { selection: read.selection, containerId: container.id, blockIds });
    }
  }
  return projects();
}

/**
 * The keys of the texts a read selects, page by page in developer-ID order: the same texts as
 * `readPages` (the filter's parts that SQL does not apply, tags and the exempt items of bases,
 * are applied to the narrow columns read), none of their content.
 */
async function readKeys(paged: PagedQuery): Promise<AsyncIterable<TextKey[]>> {
  const { executor, workspaceId } = paged;
  const read = await resolvePaged(paged);
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

// 4. The GET records of a large list, written as they are read.

/** Bytes gathered before they are handed on: few chunks for the socket, one page's JSON or so each. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The GET records of a query as the chunks of one JSON array, read page by page through
 * `executor` (a snapshot, so the pages agree) and never kept: memory holds a page and a chunk,
 * whatever the size of the selection. The event loop gets a turn after every page. The query is
 * resolved first, so an unknown reference is a 400 before any byte.
 */
async function recordChunks(paged: PagedQuery, context: RecordContext): Promise<AsyncGenerator<Buffer>> {
  const { deps, executor, workspaceId, query } = paged;
  const read = await resolvePaged(paged);
  const pageJson = query.kind === 'component' ? await componentPages(deps, executor, workspaceId) : null;
  const itemJson = query.kind === 'text_item' ? await textItemPages(deps, executor, workspaceId, read) : null;
  const pages = storedPages(executor, workspaceId, read);
  async function* chunks(): AsyncGenerator<Buffer> {
    let out = '[';
    let first = true;
    for await (const page of pages) {
      const { entities, extraJson } = pageJson ? pageJson(page) : await (itemJson as ItemPages)(page);
      const json = recordsJson(entities, context, { select: read.select, extraJson });
      if (json !== '') {
        out += first ? json : `,${json}`;
        first = false;
      }
      if (out.length >= CHUNK_BYTES) {
        yield Buffer.from(out);
        out = '';
      }
      // SQLite answers on the event loop: other requests get a turn between pages.
      await nextTurn();
    }
    yield Buffer.from(`${out}]`);
  }
  return chunks();
}

interface ShownPage {
  entities: readonly TextEntity[];
  extraJson: (entity: TextEntity) => string;
}
type ItemPages = (page: TextEntity[]) => Promise<ShownPage>;

async function componentPages(deps: TextsReaderDeps, executor: Executor, workspaceId: number) {
  const extraJson = componentJson(await deps.folders.loadFolderTree(executor, workspaceId));
  return (page: TextEntity[]): ShownPage => ({ entities: page, extraJson });
}

async function textItemPages(
  deps: TextsReaderDeps,
  executor: Executor,
  workspaceId: number,
  read: Awaited<ReturnType<typeof resolvePaged>>,
): Promise<ItemPages> {
  const [containers, blocks] = await Promise.all([
    deps.projects.listProjectRefs(executor, workspaceId),
    deps.blocks.loadBlocks(executor, workspaceId),
  ]);
  const byRowId = new Map(containers.map((c) => [c.id, c]));
  return async (page) => {
    // Linked instances show their components' text, read with the page.
    const shown = await showInstances(executor, workspaceId, page as TextItem[], read.selection.variantIds);
    const entities = shown.map((s) => s.entity);
    const components = new Map<number, string>();
    for (const s of shown) if (s.component) components.set(s.component.id, s.component.developerId);
    const derived = entities.flatMap((e) => e.baseTextItemId ?? []);
    const baseItems = derived.length > 0 ? await developerIdsByRowIds(executor, workspaceId, derived) : new Map();
    return { entities, extraJson: textItemJson({ containers: byRowId, baseItems, blocks, components }) };
  };
}

// 5. The JSON of the records: one record per base text, per variant value and per plural form
// (pure; plural records are `<developerId>_<form>`, variant records keep the base record's id and
// set `variantId`).

/**
 * API records of components and text items (pure). One record per base text, per variant value
 * and per plural form: plural records are `<developerId>_<form>`, variant
 * records keep the base record's id and set `variantId`.
 */
export interface RecordContext {
  /** Variant row id -> developer ID. */
  variantDeveloperIds: ReadonlyMap<number, string>;
  /** Variable row id -> name (its developer ID). */
  variableNames: ReadonlyMap<number, string>;
  /** User row id -> email. */
  emails: ReadonlyMap<number, string>;
  /** Set when the request asked for `richText`. */
  richText: RichTextMode | null;
  /** Whether each record carries its text's ETag (`withEtag=true`). */
  etags?: boolean;
  /**
   * Whether records carry their translation state (`withTranslationState=true`): a base record
   * the state of each variant of `variantDeveloperIds` (in its order), a variant record its own.
   */
  translationStates?: boolean;
}

/** The base text or a variant value: what owns a primary record and its plural form records. */
export type Owner = TextValue;

/** One record before rendering. */
export interface RecordSource {
  id: string;
  text: string;
  /** Stored markup, null for plain text. */
  richText: string | null;
  pluralForm: PluralForm | null;
  /** Developer ID of the variant, null for base text. */
  variantId: string | null;
  owner: Owner;
}

/** The base text's value: the text itself, which carries the same fields as a variant value. */
export const baseOwner = (entity: TextEntity): Owner => entity;

/** Which records of a text are written, and the kind's own fields in them. */
export interface RecordShape {
  /** The owners (base text, variant values) of a text whose records are kept; null for none. */
  select: (entity: TextEntity) => OwnerSelection | null;
  /** The kind's own fields as a JSON fragment (`"folderId":...,"name":...`). */
  extraJson: (entity: TextEntity) => string;
}

/**
 * The records of `entities` (in their order) as the bytes of a JSON array, written directly: the
 * largest responses of the API have tens of thousands of records, and writing JSON per owner
 * (base text or variant value) skips building record objects. `shape.extraJson` gives the kind's
 * own fields as a JSON fragment (`"folderId":...,"name":...`), written before `status` as in the
 * record table. With `cache` (keyed by the entity for its base text and by the variant value
 * object), an owner's bytes are reused by later requests over the same loaded entities, and a
 * response is one copy of them.
 */
export function serializeRecords(
  entities: readonly TextEntity[],
  context: RecordContext,
  shape: RecordShape,
  cache?: WeakMap<object, Buffer>,
): Buffer {
  const { select, extraJson } = shape;
  const parts: Buffer[] = [OPEN];
  let length = 2;
  const json = (entity: TextEntity, key: object, owner: () => Owner, variantId: string | null) => {
    let value = cache?.get(key);
    if (value === undefined) {
      value = Buffer.from(ownerJson({ entity, owner: owner(), variantId, extra: extraJson(entity) }, context));
      cache?.set(key, value);
    }
    if (parts.length > 1) {
      parts.push(COMMA);
      length += 1;
    }
    parts.push(value);
    length += value.length;
  };
  for (const entity of entities) {
    const selection = select(entity);
    if (!selection) continue;
    if (selection.base) json(entity, entity, () => baseOwner(entity), null);
    for (const value of selection.variants) {
      json(entity, value, () => value, context.variantDeveloperIds.get(value.variantId) ?? null);
    }
  }
  parts.push(CLOSE);
  return Buffer.concat(parts, length);
}

/**
 * The records of `entities` (one page of a read) as JSON, comma-separated without the array's
 * brackets ('' when the page keeps no record): the pages' parts joined by commas inside `[` and
 * `]` are, byte for byte, what `serializeRecords` writes for the whole read.
 */
export function recordsJson(entities: readonly TextEntity[], context: RecordContext, shape: RecordShape): string {
  const { select, extraJson } = shape;
  const out: string[] = [];
  for (const entity of entities) {
    const selection = select(entity);
    if (!selection) continue;
    const extra = selection.base || selection.variants.length > 0 ? extraJson(entity) : '';
    if (selection.base) out.push(ownerJson({ entity, owner: baseOwner(entity), variantId: null, extra }, context));
    for (const value of selection.variants) {
      const variantId = context.variantDeveloperIds.get(value.variantId) ?? null;
      out.push(ownerJson({ entity, owner: value, variantId, extra }, context));
    }
  }
  return out.join(',');
}

/** One owner of a text (its base text or a variant value) as its records are written. */
interface OwnerRecords {
  entity: TextEntity;
  owner: Owner;
  /** The variant's developer ID; null for the base text. */
  variantId: string | null;
  /** The kind's own fields, a JSON fragment (see `serializeRecords`). */
  extra: string;
}

/** The JSON of every record of one owner, comma-separated. */
function ownerJson(records: OwnerRecords, context: RecordContext): string {
  const { entity, owner, variantId, extra } = records;
  const listed = entity.variableIds.flatMap((id) => context.variableNames.get(id) ?? []);
  const assignee = owner.assigneeId === null ? null : (context.emails.get(owner.assigneeId) ?? null);
  const middle = `"notes":${str(owner.notes)},"characterLimit":${owner.characterLimit},"tags":${str(entity.tags)},"integrated":${entity.integrated}`;
  const tail = `"variantId":${str(variantId)}`;
  const etag = context.etags ? `"etag":${str(textEtag(entity.id, entity.revision ?? 0))},` : '';
  const state = context.translationStates ? translationJson(entity, owner, variantId, context) : '';
  const end = `${extra && `${extra},`}${etag}"status":${str(owner.status)},"assignee":${str(assignee)}${state}}`;
  return ownerSources(entity.developerId, owner, variantId)
    .map((source) => {
      const rich = context.richText ? `,"richText":${str(richTextOf(source, context.richText))}` : '';
      const variableIds = listed.length === 0 ? '[]' : str(usedVariables([source.text], listed));
      return `{"id":${str(source.id)},"text":${str(source.text)}${rich},${middle},"variableIds":${variableIds},${tail},"pluralForm":${str(source.pluralForm)},${end}`;
    })
    .join(',');
}

/** The records of one owner (base text or variant value): the primary record, then plural forms in CLDR order. */
function ownerSources(developerId: string, owner: Owner, variantId: string | null): RecordSource[] {
  const out: RecordSource[] = [
    { id: developerId, text: owner.text, richText: owner.richText, pluralForm: null, variantId, owner },
  ];
  for (const plural of owner.plurals ? inCldrOrder(owner.plurals) : []) {
    const id = pluralRecordId(developerId, plural.form);
    out.push({ id, text: plural.text, richText: plural.richText ?? null, pluralForm: plural.form, variantId, owner });
  }
  return out;
}

/** `,"translationStates":{...}` of a base record or `,"translationState":"..."` of a variant record. */
function translationJson(entity: TextEntity, owner: Owner, variantId: string | null, context: RecordContext): string {
  if (variantId !== null) return `,"translationState":"${translationStateOf(entity, owner as VariantValue)}"`;
  const states: string[] = [];
  for (const [rowId, developerId] of context.variantDeveloperIds) {
    const value = entity.variants.find((v) => v.variantId === rowId);
    states.push(`${str(developerId)}:"${translationStateOf(entity, value)}"`);
  }
  return `,"translationStates":{${states.join(',')}}`;
}

/**
 * A text's ETag (`withEtag`, `If-Match`), not a response's (`responseEtag`, src/http/cache): its row id and the workspace revision of its last change. Every change of the
 * text (base fields, a variant value, its variables, a cascade) goes through
 * `texts.repository.updateTexts(Each)`, which stamps the revision, so a changed text never keeps its
 * ETag; a deleted and recreated text has a new row id.
 */
export function textEtag(id: number, revision: number): string {
  return `"${id.toString(36)}.${revision.toString(36)}"`;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

// 6. Reads kept between requests, per workspace revision.

interface Entry<T> {
  revision: number;
  value: Promise<T>;
}

interface SelectionCacheBounds {
  /** Bytes all kept reads may hold together. */
  maxBytes: number;
  /** Bytes one read may hold and still be kept. */
  maxEntryBytes: number;
}

/**
 * What the texts reader has read, kept between requests and keyed by the workspace's content
 * revision (`createTextsReader` above): the one cache of reads of components and text items.
 *
 * Every content write advances the revision in its own transaction (src/modules/changes/write-path.ts) and
 * authentication reads it, so a read made for revision R holds data at least as new as R: a
 * request authenticated at R or earlier may use it, a request at a newer revision reads again.
 * Concurrent requests share one read while it loads. Memory is bounded by bytes (an estimate of
 * what a read holds, its JSON included; lru-cache's `maxSize`), least recently used out first,
 * and a read estimated larger than `maxEntryBytes` is never kept: it serves the requests that
 * were waiting for it and is dropped.
 */
class SelectionCache<T> {
  /** Reads being loaded, shared by the requests that ask meanwhile. */
  readonly #loading = new Map<string, Entry<T>>();
  readonly #kept: LRUCache<string, Entry<T>>;

  constructor(
    bounds: SelectionCacheBounds,
    private readonly bytesOf: (value: T) => number,
  ) {
    this.#kept = new LRUCache<string, Entry<T>>({
      maxSize: bounds.maxBytes,
      maxEntrySize: bounds.maxEntryBytes,
      // Set only once loaded (below), with the size measured then.
      sizeCalculation: () => 1,
    });
  }

  get(key: string, revision: number, load: () => Promise<T>): Promise<T> {
    const pending = this.#loading.get(key);
    if (pending && pending.revision >= revision) return pending.value;
    const kept = this.#kept.get(key);
    if (kept && kept.revision >= revision) return kept.value;
    const value = load();
    const fresh: Entry<T> = { revision, value };
    this.#loading.set(key, fresh);
    value.then(
      (loaded) => {
        if (this.#loading.get(key) !== fresh) return;
        this.#loading.delete(key);
        const current = this.#kept.get(key);
        if (current && current.revision > revision) return;
        // Over `maxEntryBytes`, lru-cache refuses it (and forgets an older read of the key).
        this.#kept.set(key, fresh, { size: Math.max(1, this.bytesOf(loaded)) });
      },
      () => {
        // A failed load is not remembered: the next request tries again.
        if (this.#loading.get(key) === fresh) this.#loading.delete(key);
      },
    );
    return value;
  }

  /** A read of the key loaded or loading for this revision (or a newer one), without starting one. */
  peek(key: string, revision: number): Promise<T> | undefined {
    const pending = this.#loading.get(key);
    if (pending && pending.revision >= revision) return pending.value;
    const kept = this.#kept.get(key);
    return kept && kept.revision >= revision ? kept.value : undefined;
  }

  /** Reads kept (loaded and within the bounds). */
  get size(): number {
    return this.#kept.size;
  }

  /** The estimated bytes of the reads kept. */
  get bytes(): number {
    return this.#kept.calculatedSize;
  }
}

// 7. Frozen reads: the texts a release keeps, read once as plain data (see frozen.ts for reads of them).

/**
 * The texts each filter of `filters` selects, whole (every selected variant value, linked
 * instances showing their components), and everything their records and files refer to: the
 * workspace's statuses, variants, variables, users, folders, projects, blocks and the developer
 * IDs of the texts they point at. Plain data, so it can be stored and read back as it was.
 */
async function freezeTexts(paged: Omit<PagedQuery, 'query'>, filters: FreezeFilters): Promise<FrozenTexts> {
  const { deps, executor, workspaceId } = paged;
  const [statuses, variants, variables, userIds, tree, containers, blocks] = await Promise.all([
    deps.statuses.keys(executor, workspaceId),
    deps.variants.listVariants(executor, workspaceId),
    deps.variables.listVariables(executor, workspaceId),
    deps.accounts.userIdsByEmail(workspaceId),
    deps.folders.loadFolderTree(executor, workspaceId),
    deps.projects.listProjectRefs(executor, workspaceId),
    deps.blocks.loadBlocks(executor, workspaceId),
  ]);
  const read = async (kind: TextKind, filter: ParsedFilter | null): Promise<TextEntity[]> => {
    if (filter === null) return [];
    const resolved = await resolvePaged({ ...paged, query: { kind, filter, allVariantValues: true } });
    const out: TextEntity[] = [];
    for await (const page of storedPages(executor, workspaceId, resolved)) {
      const shown = await resolved.shown(page);
      for (const entity of shown.entities) {
        const chosen = shown.select(entity);
        if (chosen === null) continue;
        out.push({ ...entity, variants: [...chosen.variants] });
      }
    }
    return out;
  };
  const components = (await read('component', filters.components)) as Component[];
  const textItems = (await read('text_item', filters.textItems)) as TextItem[];
  const referred = new Set<number>();
  for (const item of textItems) {
    if (item.componentId !== null) referred.add(item.componentId);
    if (item.baseTextItemId !== null) referred.add(item.baseTextItemId);
  }
  const refs = referred.size > 0 ? await developerIdsByRowIds(executor, workspaceId, [...referred]) : new Map();
  const basis: FrozenBasis = {
    statuses: [...statuses],
    variants: [...variants],
    variables: [...variables],
    users: [...userIds],
    folders: tree.folders.map(({ id, developerId, parentId }) => ({ id, developerId, parentId })),
    containers: [...containers],
    blocks: [...blocks],
    refs: [...refs],
  };
  return { basis, components, textItems };
}
