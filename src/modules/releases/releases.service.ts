/**
 * Releases (docs/releases.md): the texts a filter selects, frozen under a name, and every read of
 * them. A release is made from one snapshot of the workspace through the texts core's `freeze`,
 * stored content-addressed (each text and the workspace as they refer to it, one JSON document
 * each, by SHA-256), and never changed. Reads of it (`release=` on the v2 lists and exports)
 * run the same filter rules, record JSON and file writers as reads of the workspace, over the
 * frozen texts: the same bytes the workspace gave when the release was made.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import type { OpenSnapshot } from '../../db/snapshot.js';
import { type ContentAddressedBody, contentAddressed } from '../../http/cache/index.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { type ExportKind, type ExportQuery, renderExport } from '../exports/exports.service.js';
import {
  type FreezeFilters,
  type FrozenBasis,
  type FrozenTexts,
  frozenRecords,
  frozenSelection,
  inCldrOrder,
  type ParsedFilter,
  type RecordFormat,
  type TextEntity,
  type TextQuery,
  type TextSelection,
  type TextsReader,
  type TextValue,
} from '../texts/index.js';
import type { Variable } from '../variables/variables.service.js';
import type { Variant } from '../variants/variants.service.js';
import * as pinsRepo from './pins.repository.js';
import * as repo from './releases.repository.js';

/** What a release freezes, as the API takes it; every field optional (see `filtersOf`). */
export interface ReleaseFilterInput {
  /** Developer IDs of projects; absent: every project; empty: no text items. */
  projects?: string[];
  /** Whether the library's components are in it (default true). */
  library?: boolean;
  /** Folders of the library; absent: the whole library. */
  folders?: { id: string; excludeNestedFolders?: boolean }[];
  /** Status keys; absent: `FINAL` only; empty: every status. */
  statuses?: string[];
  /** Variant developer IDs besides the base text; absent: every variant. */
  variants?: string[];
}

export interface Release {
  name: string;
  /** Hex SHA-256 of the release's content: equal releases have equal hashes, on any server. */
  hash: string;
  filter: ReleaseFilterInput;
  components: number;
  textItems: number;
  createdBy: string;
  createdAt: string;
  /** The release made before it, if any (what the app diffs it against). */
  previous: string | null;
}

/** One text's value (its base text or one variant's) as a diff shows it. */
export interface DiffValue {
  text: string;
  richText: string | null;
  plurals: { form: string; text: string }[] | null;
}

export interface DiffKey {
  kind: 'component' | 'textItem';
  id: string;
  /** The variant's developer ID; null for the base text. */
  variantId: string | null;
}

export interface ReleaseDiff {
  from: string;
  to: string;
  added: (DiffKey & { value: DiffValue })[];
  changed: (DiffKey & { before: DiffValue; after: DiffValue })[];
  removed: (DiffKey & { value: DiffValue })[];
}

/** Whether a request reads a release (`release=` on the v2 lists and exports). */
export const hasRelease = (request: { query: unknown }): boolean =>
  typeof (request.query as { release?: unknown } | undefined)?.release === 'string';

/** A release's name: what URLs and the CLI carry. `latest` names what a distribution serves. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const RESERVED = new Set(['latest', 'current', 'previous', 'diff']);

export function checkReleaseName(name: string, field = 'name'): void {
  if (!NAME.test(name)) {
    throw badRequest(
      `${field}: '${name}' is not a release name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  if (RESERVED.has(name)) throw badRequest(`${field}: '${name}' is reserved: choose another name`);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The texts core's filters of a release's input (its defaults applied). */
export function filtersOf(input: ReleaseFilterInput): FreezeFilters {
  const statuses = input.statuses ?? ['FINAL'];
  // The base text always, and every variant unless the filter names some.
  const variants = ['base', ...(input.variants ?? ['all'])];
  // An empty list is no restriction, as in a `filter` query parameter.
  const common: ParsedFilter = { ...(statuses.length > 0 && { statuses }), variants };
  const textItems: ParsedFilter | null =
    input.projects === undefined
      ? common
      : input.projects.length === 0
        ? null
        : { ...common, projects: input.projects };
  const components: ParsedFilter | null =
    input.library === false
      ? null
      : {
          ...common,
          ...(input.folders && {
            folders: input.folders.map((f) => ({ id: f.id, excludeNestedFolders: f.excludeNestedFolders ?? false })),
          }),
        };
  return { components, textItems };
}

/** A release read back: its texts and the workspace as they refer to it. */
export interface FrozenRelease {
  row: repo.ReleaseRow;
  frozen: FrozenTexts;
  language: string;
}

/** The stored document of a release's workspace. */
interface BasisDocument {
  language: string;
  basis: FrozenBasis;
}

/** An export of a release: which kind, the export's query, and the filter's bound. */
export interface ExportRequest {
  kind: ExportKind;
  query: ExportQuery;
  maxFilterIds: number;
}

export interface ReleasesDeps {
  db: Kysely<Database>;
  /** The consistent read a release is frozen from. */
  snapshot: OpenSnapshot;
  texts: Pick<TextsReader, 'freeze'>;
  accounts: Pick<AccountsService, 'baseLanguage'>;
}

/** Bytes of frozen releases and of rendered answers kept in memory (both immutable, so never stale). */
const FROZEN_CACHE_BYTES = 64 * 1024 * 1024;
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;

async function bytesOfBody(body: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A frozen selection as the one page of an export. */
async function* onePage(selection: TextSelection): AsyncGenerator<TextSelection> {
  yield selection;
}

/** A query's parameters in one canonical order (a key of the kept answers). */
const canonical = (query: object) =>
  JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function createReleasesService(deps: ReleasesDeps) {
  const { db } = deps;
  // Each entry's size is given when it is set: about three times its JSON's length.
  const frozenCache = new LRUCache<string, { frozen: FrozenTexts; language: string }>({
    maxSize: FROZEN_CACHE_BYTES,
  });
  const answers = new LRUCache<string, ContentAddressedBody>({
    maxSize: ANSWER_CACHE_BYTES,
    sizeCalculation: (value, key) => value.body.length + key.length + 256,
    maxEntrySize: ANSWER_CACHE_BYTES / 4,
  });

  async function toRelease(workspaceId: number, row: repo.ReleaseRow): Promise<Release> {
    const previous = await repo.previousRelease(db, workspaceId, row.id);
    return {
      name: row.name,
      hash: row.content_hash,
      filter: JSON.parse(row.filter) as ReleaseFilterInput,
      components: row.components,
      textItems: row.text_items,
      createdBy: row.created_by,
      createdAt: row.created_at,
      previous: previous?.name ?? null,
    };
  }

  async function requireRow(workspaceId: number, name: string): Promise<repo.ReleaseRow> {
    const row = await repo.findRelease(db, workspaceId, name);
    if (!row) throw notFound(`Release ${name} not found`);
    return row;
  }

  /** The workspace's texts as the filter selects them now, frozen, from one snapshot. */
  async function freezeNow(workspaceId: number, filter: ReleaseFilterInput) {
    const snapshot = await deps.snapshot();
    try {
      const [frozen, language] = await Promise.all([
        deps.texts.freeze(snapshot.db, workspaceId, filtersOf(filter)),
        deps.accounts.baseLanguage(snapshot.db, workspaceId),
      ]);
      return { frozen, language };
    } finally {
      await snapshot.close();
    }
  }

  /** A release's frozen texts, read once per process and kept (a release never changes). */
  async function load(workspaceId: number, name: string): Promise<FrozenRelease> {
    return loadRow(workspaceId, await requireRow(workspaceId, name));
  }

  /** `load` of a release row already read (the delivery routes read it with their token). */
  async function loadRow(workspaceId: number, row: repo.ReleaseRow): Promise<FrozenRelease> {
    const { name } = row;
    const key = `${row.content_hash}:${workspaceId}`;
    let kept = frozenCache.get(key);
    if (!kept) {
      const basisBody = await repo.contentBody(db, workspaceId, row.basis_hash);
      if (basisBody === undefined) throw new Error(`release ${name}: its basis document is missing`);
      const { language, basis } = JSON.parse(basisBody) as BasisDocument;
      const frozen: FrozenTexts = { basis, components: [], textItems: [] };
      let size = basisBody.length;
      for (const { kind, body } of await repo.releaseTexts(db, workspaceId, row.id)) {
        size += body.length;
        const entity = JSON.parse(body) as TextEntity;
        if (kind === 'component') frozen.components.push(entity as FrozenTexts['components'][number]);
        else frozen.textItems.push(entity as FrozenTexts['textItems'][number]);
      }
      kept = { frozen, language };
      frozenCache.set(key, kept, { size: Math.max(1, size * 3) });
    }
    return { row, ...kept };
  }

  /** An answer rendered once per release and query, then kept. */
  async function answer(key: string, render: () => Promise<ContentAddressedBody>): Promise<ContentAddressedBody> {
    const kept = answers.get(key);
    if (kept) return kept;
    const rendered = await render();
    answers.set(key, rendered);
    return rendered;
  }

  /** A loaded release's file, rendered once per query and kept. */
  function exportOf(release: FrozenRelease, request: ExportRequest): Promise<ContentAddressedBody> {
    const { kind, query, maxFilterIds } = request;
    const { release: _name, ...rest } = query;
    return answer(`${release.row.content_hash}\nexport\n${kind}\n${canonical(rest)}`, async () => {
      const { frozen, language } = release;
      const file = await renderExport(kind, rest, maxFilterIds, async () => ({
        variants: frozen.basis.variants as Variant[],
        variables: frozen.basis.variables as Variable[],
        language,
        pages: async (textQuery) => onePage(frozenSelection(frozen, textQuery)),
        close: async () => {},
      }));
      return contentAddressed(await bytesOfBody(file.body), file.contentType);
    });
  }

  return {
    checkReleaseName,

    async list(workspaceId: number): Promise<Release[]> {
      const rows = await repo.listReleases(db, workspaceId);
      return rows.map((row, i) => ({
        name: row.name,
        hash: row.content_hash,
        filter: JSON.parse(row.filter) as ReleaseFilterInput,
        components: row.components,
        textItems: row.text_items,
        createdBy: row.created_by,
        createdAt: row.created_at,
        previous: i > 0 ? (rows[i - 1] as repo.ReleaseRow).name : null,
      }));
    },

    async get(workspaceId: number, name: string): Promise<Release> {
      return toRelease(workspaceId, await requireRow(workspaceId, name));
    },

    /** POST /releases: freezes the texts the filter selects now, under a new name. */
    async create(
      actor: { workspaceId: number; email: string },
      input: { name: string; filter?: ReleaseFilterInput },
    ): Promise<Release> {
      const { workspaceId } = actor;
      checkReleaseName(input.name);
      const filter = input.filter ?? {};
      if (await repo.findRelease(db, workspaceId, input.name)) {
        throw conflict(`name: a release named ${input.name} already exists`);
      }
      const { frozen, language } = await freezeNow(workspaceId, filter);
      const basisBody = JSON.stringify({ language, basis: frozen.basis } satisfies BasisDocument);
      const documents = [{ hash: sha256(basisBody), body: basisBody }];
      const texts: { kind: 'component' | 'text_item'; hash: string }[] = [];
      for (const entity of [...frozen.components, ...frozen.textItems]) {
        const body = JSON.stringify(entity);
        const hash = sha256(body);
        documents.push({ hash, body });
        texts.push({ kind: entity.kind, hash });
      }
      const basisHash = documents[0]?.hash as string;
      const contentHash = sha256([basisHash, ...texts.map((t) => `${t.kind}:${t.hash}`)].join('\n'));
      try {
        await db.transaction().execute(async (trx) => {
          await repo.insertContents(trx, workspaceId, documents);
          await repo.insertRelease(
            trx,
            workspaceId,
            {
              name: input.name,
              filter: JSON.stringify(filter),
              basis_hash: basisHash,
              content_hash: contentHash,
              components: frozen.components.length,
              text_items: frozen.textItems.length,
              created_by: actor.email,
              created_at: new Date().toISOString(),
            },
            texts,
          );
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`name: a release named ${input.name} already exists`);
        throw error;
      }
      return toRelease(workspaceId, await requireRow(workspaceId, input.name));
    },

    /** DELETE /releases/:name: refused while a distribution serves it. */
    async remove(workspaceId: number, name: string): Promise<void> {
      const row = await requireRow(workspaceId, name);
      await db.transaction().execute(async (trx) => {
        const using = await repo.distributionsUsing(trx, workspaceId, row.id);
        if (using.length > 0) {
          throw conflict(`Release ${name} is published to ${using.join(', ')}: publish another release there first`);
        }
        const pinned = await pinsRepo.projectsPinnedTo(trx, workspaceId, row.id);
        if (pinned.length > 0) {
          throw conflict(`Release ${name} is pinned for ${pinned.join(', ')}: unpin or pin another release first`);
        }
        await repo.deleteRelease(trx, workspaceId, row.id);
      });
    },

    /** A release's file (`release=` on GET /textItems/export, /components/export). */
    async exportFile(workspaceId: number, name: string, request: ExportRequest): Promise<ContentAddressedBody> {
      return exportOf(await load(workspaceId, name), request);
    },

    exportOf,
    loadRow,

    /** A release's GET records (`release=` on GET /textItems, /components). */
    async records(
      workspaceId: number,
      name: string,
      query: TextQuery,
      format: RecordFormat,
    ): Promise<ContentAddressedBody> {
      const release = await load(workspaceId, name);
      return answer(`${release.row.content_hash}\nrecords\n${canonical(query)}\n${canonical(format)}`, async () =>
        contentAddressed(frozenRecords(release.frozen, query, format), 'application/json; charset=utf-8'),
      );
    },

    /** Keys added, changed and removed from one release to another (or to the current text), per variant. */
    async diff(workspaceId: number, from: string, to: string): Promise<ReleaseDiff> {
      const before = await load(workspaceId, from);
      const after =
        to === 'current'
          ? await freezeNow(workspaceId, JSON.parse(before.row.filter) as ReleaseFilterInput)
          : await load(workspaceId, to);
      return { from, to, ...diffOf(before.frozen, after.frozen) };
    },

    load,
  };
}

export type ReleasesService = ReturnType<typeof createReleasesService>;

/** What a diff compares of a value. */
function diffValue(value: TextValue): DiffValue {
  return {
    text: value.text,
    richText: value.richText,
    plurals: value.plurals ? inCldrOrder(value.plurals).map((p) => ({ form: p.form, text: p.text })) : null,
  };
}

/** Every value of frozen texts, by `kind\tid\tvariant`. */
function valuesOf(frozen: FrozenTexts): Map<string, { key: DiffKey; value: DiffValue }> {
  const variants = new Map(frozen.basis.variants.map((v) => [v.id, v.developerId]));
  const out = new Map<string, { key: DiffKey; value: DiffValue }>();
  for (const entity of [...frozen.components, ...frozen.textItems]) {
    const kind = entity.kind === 'component' ? 'component' : 'textItem';
    const add = (variantId: string | null, value: TextValue) =>
      out.set(`${kind}\t${entity.developerId}\t${variantId ?? ''}`, {
        key: { kind, id: entity.developerId, variantId },
        value: diffValue(value),
      });
    add(null, entity);
    for (const value of entity.variants) add(variants.get(value.variantId) ?? String(value.variantId), value);
  }
  return out;
}

/** The diff of two frozen sets, each list in key order (kind, developer ID, base then variants). */
export function diffOf(before: FrozenTexts, after: FrozenTexts): Omit<ReleaseDiff, 'from' | 'to'> {
  const a = valuesOf(before);
  const b = valuesOf(after);
  const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const added: ReleaseDiff['added'] = [];
  const changed: ReleaseDiff['changed'] = [];
  const removed: ReleaseDiff['removed'] = [];
  for (const k of [...b.keys()].sort(order)) {
    const now = b.get(k) as { key: DiffKey; value: DiffValue };
    const was = a.get(k);
    if (!was) added.push({ ...now.key, value: now.value });
    else if (JSON.stringify(was.value) !== JSON.stringify(now.value)) {
      changed.push({ ...now.key, before: was.value, after: now.value });
    }
  }
  for (const k of [...a.keys()].sort(order)) {
    const was = a.get(k) as { key: DiffKey; value: DiffValue };
    if (!b.has(k)) removed.push({ ...was.key, value: was.value });
  }
  return { added, changed, removed };
}
