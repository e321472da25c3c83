import type { Executor } from '../../db/schema.js';
import type { RichTextMode } from '../../richtext/index.js';
import { bodyOf } from '../../shared/chunked-body.js';
import { selectRecords } from './filter.js';
import { type ReadBasis, readComponents, readTextItems, type TextsReaderDeps } from './reader.kinds.js';
import { readKeys, readPages } from './reader.pages.js';
import { recordChunks } from './reader.records.js';
import { type RecordContext, serializeRecords } from './records.js';
import { SelectionCache } from './selection-cache.js';
import type {
  OwnerSelection,
  TextEntity,
  TextKind,
  TextOfKind,
  TextQuery,
  TextSelection,
  TextsReader,
  TextValue,
} from './texts.types.js';

export type { TextsReaderDeps };

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
 * (tens of thousands of texts) is read in pages for each request instead (`recordPages`), and
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
 * (selection.repository.ts), and kept for the workspace's revision: every write advances the
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
      read.select,
      read.extraJson,
      json,
    );
  }

  const reader: TextsReader = {
    async select<K extends TextKind>(workspaceId: number, revision: number, query: TextQuery<K>) {
      const { entities, select } = await get(workspaceId, revision, query);
      return { entities, select } as unknown as TextSelection<TextOfKind<K>>;
    },

    async pages<K extends TextKind>(executor: Executor, workspaceId: number, query: TextQuery<K>) {
      const pages = await readPages(deps, executor, workspaceId, query, await basis(workspaceId, executor));
      return pages as AsyncIterable<TextSelection<TextOfKind<K>>>;
    },

    async keys<K extends TextKind>(executor: Executor, workspaceId: number, query: TextQuery<K>) {
      return readKeys(deps, executor, workspaceId, query, await basis(workspaceId, executor));
    },

    async records(
      workspaceId: number,
      revision: number,
      query: TextQuery,
      richText: RichTextMode | null,
      etags = false,
    ) {
      const body = await reader.recordStream(workspaceId, revision, query, richText, etags);
      if (Buffer.isBuffer(body)) return body;
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },

    async recordStream(
      workspaceId: number,
      revision: number,
      query: TextQuery,
      richText: RichTextMode | null,
      etags = false,
    ) {
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
        const chunks = await recordChunks(deps, db, workspaceId, loadedQuery(query), common, context);
        return await bodyOf(chunks, () => snapshot.close());
      } catch (error) {
        await snapshot.close();
        throw error;
      }
    },
  };
  return reader;
}
