import type { Executor } from '../../db/schema.js';
import type { LegacyText } from '../../formats/legacy/index.js';
import { bodyOf } from '../../http/cache/index.js';
import { badRequest, notFound } from '../../http/errors.js';
import { nextTurn } from '../../shared/next-turn.js';
import { buildDocument, fileFormats } from '../exports/exports.service.js';
import { folderNotFound } from '../folders/folders.service.js';
import {
  type Component,
  type ParsedFilter,
  type TextEntity,
  type TextItem,
  type TextQuery,
  type TextSelection,
  variantNotFoundMessage,
} from '../texts/index.js';
import type { Variant } from '../variants/variants.service.js';
import {
  checkStatus,
  type FetchParams,
  LIBRARY_ID,
  LIBRARY_NAME,
  libraryOff,
  type Reach,
  requireSources,
} from './legacy.access.js';
import type { LegacyReadDeps, Reader } from './legacy.deps.js';
import { createLegacyLists } from './legacy.lists.js';
import { legacySelection, legacyTexts } from './legacy.records.js';
import { embedded, exportOptions, type LegacyBody, renderBody } from './legacy.render.js';
import {
  bodyEnds,
  entryWriter,
  FILE_FORMATS,
  keyedFormat,
  memberJson,
  projectWriter,
  WRITTEN_FORMATS,
  writableBlocks,
  writableKey,
} from './legacy.written.js';

export type { LegacyReadDeps, Reader };

/** The content type of the JSON bodies. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** No texts: what a file's header is built from. */
const NOTHING: TextSelection = { entities: [], select: () => null };

/** Bytes of JSON gathered before they are handed on. */
const CHUNK_BYTES = 64 * 1024;

const str = JSON.stringify;

/** The parts of a body gathered into chunks of about `CHUNK_BYTES`. */
async function* inChunks(parts: AsyncIterable<string>): AsyncGenerator<Buffer> {
  let out = '';
  for await (const part of parts) {
    out += part;
    if (out.length >= CHUNK_BYTES) {
      yield Buffer.from(out);
      out = '';
    }
  }
  yield Buffer.from(out);
}

/** A project as a fetch names it: its row id, developer ID and name. */
interface ProjectSource {
  id: number;
  developerId: string;
  name: string;
}

/** Which components a components fetch holds. */
export type ComponentScope =
  | { kind: 'all' }
  | { kind: 'root' }
  | { kind: 'folder'; developerId: string }
  | { kind: 'project'; developerId: string };

/**
 * The read side of the v0 and v1 APIs: thin adapters from their parameters to the shared texts
 * core (the same reader as the v2 fetches) and to the exporters, in the legacy bodies.
 */
export function createLegacyReader(deps: LegacyReadDeps) {
  const { db } = deps;

  async function reach(workspaceId: number): Promise<Reach & { baseLanguage: string }> {
    const [refs, settings] = await Promise.all([
      deps.projects.listProjectRefs(db, workspaceId),
      deps.workspace.get(workspaceId),
    ]);
    const projects = new Map(refs.filter((r) => r.kind === 'project').map((r) => [r.developerId, r]));
    return { projects, library: settings.libraryDeveloperMode, baseLanguage: settings.baseLanguage };
  }

  /** What every text fetch needs besides its selection: the variant, the variables, the locale. */
  async function fetchContext(reader: Reader, params: FetchParams, baseLanguage: string) {
    const [variants, variables, statuses] = await Promise.all([
      deps.variants.listVariants(db, reader.workspaceId),
      deps.variables.listVariables(db, reader.workspaceId),
      deps.statuses.keys(db, reader.workspaceId),
    ]);
    checkStatus(statuses, params.status);
    let variant: Variant | null = null;
    if (params.variant !== null) {
      variant = variants.find((v) => v.developerId === params.variant) ?? null;
      if (!variant) throw badRequest(`variant: ${variantNotFoundMessage(params.variant)}`);
    }
    const filter: ParsedFilter = { variants: [variant?.developerId ?? 'base'] };
    return { variant, variables, locale: variant?.localeCode ?? baseLanguage, filter };
  }

  type Context = Awaited<ReturnType<typeof fetchContext>>;

  /** One fetch, as each of its bodies is built from it. */
  interface Fetch {
    /** The workspace and revision read. */
    reader: Reader;
    /** The fetch's parameters. */
    params: FetchParams;
    /** What `fetchContext` found for them. */
    context: Context;
  }

  /** Which of the selected texts a body holds, and what it writes of each besides its text. */
  interface Shown {
    /** The texts kept; none: every selected text. */
    keep: ((entity: TextEntity) => boolean) | undefined;
    /** A text's component or block. */
    extra: (entity: TextEntity) => Pick<LegacyText, 'component' | 'block'>;
  }

  function body(
    { params, context }: Fetch,
    selection: TextSelection,
    { keep, extra }: Shown,
    header: { id: string; name: string; library: boolean },
  ): LegacyBody {
    const { variant, variables, locale } = context;
    const legacy = legacySelection(selection, { variantId: variant?.id ?? null, status: params.status, keep });
    const document = buildDocument(legacy, { variant, variables, locale, options: exportOptions(params.format) });
    return renderBody({
      format: params.format,
      texts: legacyTexts(legacy, document, extra),
      document,
      richText: params.richText,
      header: { ...header, exportedAt: new Date().toISOString() },
    });
  }

  /**
   * What a project fetch reads besides the texts: the project, its filter, its blocks, its scope
   * and the block of a text.
   */
  async function projectScope(reader: Reader, project: ProjectSource, params: FetchParams, context: Context) {
    const filter: ParsedFilter = { ...context.filter, projects: [project.developerId] };
    const blocks = await deps.blocks.loadBlocks(db, reader.workspaceId, [project.id]);
    const keep = params.excludeComponents
      ? (entity: TextEntity) => (entity as TextItem).componentId === null
      : undefined;
    const extra = (entity: TextEntity) => {
      const { blockId } = entity as TextItem;
      return { block: blockId === null ? null : (blocks.get(blockId)?.name ?? null) };
    };
    return { project, filter, blocks: [...blocks.values()], keep, extra };
  }

  type ProjectScope = Awaited<ReturnType<typeof projectScope>>;

  async function projectBody(fetch: Fetch, scope: ProjectScope) {
    const { reader } = fetch;
    const { project } = scope;
    const query = { kind: 'text_item' as const, filter: scope.filter, sort: 'project_order' as const };
    const selection = await deps.texts.select(reader.workspaceId, reader.revision, query);
    const header = { id: project.developerId, name: project.name, library: false };
    return body(fetch, selection, scope, header);
  }

  /**
   * A body written from one snapshot as the client reads (never the whole selection in memory):
   * `parts` answers its parts read through the snapshot, or null when it must be built whole.
   */
  async function written(
    parts: (executor: Executor) => Promise<AsyncIterable<string> | null>,
    contentType = JSON_TYPE,
  ): Promise<LegacyBody | null> {
    const snapshot = deps.snapshot ? await deps.snapshot() : { db, close: async () => {} };
    try {
      const chosen = await parts(snapshot.db);
      if (!chosen) {
        await snapshot.close();
        return null;
      }
      return { written: await bodyOf(inChunks(chosen), () => snapshot.close()), contentType };
    } catch (error) {
      await snapshot.close();
      throw error;
    }
  }

  /**
   * Whether the selected texts' developer IDs let `format` be written member by member
   * (`writableKey`): a first pass over the keys only.
   */
  async function writableKeys(executor: Executor, workspaceId: number, query: TextQuery, params: FetchParams) {
    for await (const keys of await deps.texts.keys(executor, workspaceId, query)) {
      // Leaving the loop ends the pages (and a PostgreSQL cursor) before the snapshot closes.
      if (!keys.every((key) => writableKey(params.format, key.developerId))) return false;
      await nextTurn();
    }
    return true;
  }

  /** A component fetch's parts, page by page (see `writableKeys` for when it may be written so). */
  async function* componentParts(
    executor: Executor,
    { reader, params, context }: Fetch,
    query: { kind: 'component'; filter: ParsedFilter },
    extra: Shown['extra'],
  ): AsyncGenerator<string> {
    const { workspaceId } = reader;
    const { variant, variables, locale } = context;
    const ends = bodyEnds(params.format, { id: LIBRARY_ID, name: LIBRARY_NAME, exportedAt: new Date().toISOString() });
    const rules = { variantId: variant?.id ?? null, status: params.status };
    yield ends.open;
    let first = true;
    for await (const page of await deps.texts.pages(executor, workspaceId, query)) {
      const legacy = legacySelection(page as TextSelection, rules);
      const document = buildDocument(legacy, { variant, variables, locale, options: exportOptions(params.format) });
      let out = '';
      for (const text of legacyTexts(legacy, document, extra)) {
        out += first ? '' : ',';
        out += memberJson(params.format, text, params.richText);
        first = false;
      }
      yield out;
      await nextTurn();
    }
    yield ends.close;
  }

  /** A project fetch's parts in project order, page by page (the pages of a project never hold another's). */
  async function* projectParts(
    executor: Executor,
    { reader, params, context }: Fetch,
    scope: ProjectScope,
    embedded = false,
  ): AsyncGenerator<string> {
    const { workspaceId } = reader;
    const { project } = scope;
    const { variant, variables, locale } = context;
    const rules = { variantId: variant?.id ?? null, status: params.status, keep: scope.keep };
    const query = { kind: 'text_item' as const, filter: scope.filter, sort: 'project_order' as const };
    if (FILE_FORMATS.has(params.format)) {
      // The file's head and tail depend on the document's header only, the same for every page.
      const options = exportOptions(params.format);
      const writer = entryWriter(
        params.format,
        buildDocument(NOTHING, { variant, variables, locale, options }),
        embedded,
      );
      yield writer.open;
      for await (const page of await deps.texts.pages(executor, workspaceId, query)) {
        const document = buildDocument(legacySelection(page as TextSelection, rules), {
          variant,
          variables,
          locale,
          options,
        });
        let out = '';
        for (const entry of document.entries) out += writer.add(entry);
        yield out;
        await nextTurn();
      }
      yield writer.close();
      return;
    }
    const header = { id: project.developerId, name: project.name, exportedAt: new Date().toISOString() };
    const writer = projectWriter(params.format, header, params.richText);
    yield writer.open;
    for await (const page of await deps.texts.pages(executor, workspaceId, query)) {
      const legacy = legacySelection(page as TextSelection, rules);
      const document = buildDocument(legacy, { variant, variables, locale, options: exportOptions(params.format) });
      let out = '';
      for (const text of legacyTexts(legacy, document, scope.extra)) out += writer.add(text);
      yield out;
      await nextTurn();
    }
    yield writer.close();
  }

  /**
   * Whether a project's body can be written page by page: its format, and for a JSON object its
   * keys, and in `full` its block names (the native files are written in any case).
   */
  async function projectWritable(executor: Executor, workspaceId: number, params: FetchParams, scope: ProjectScope) {
    if (!WRITTEN_FORMATS.has(params.format) && !FILE_FORMATS.has(params.format)) return false;
    if (
      !writableBlocks(
        params.format,
        scope.blocks.map((block) => block.name),
      )
    )
      return false;
    if (!keyedFormat(params.format)) return true;
    return writableKeys(executor, workspaceId, { kind: 'text_item', filter: scope.filter }, params);
  }

  /**
   * One source's body inside `GET /projects`, read through `executor`: written page by page when it
   * can be, else built whole (one source at a time) and serialized.
   */
  async function* sourceParts(
    executor: Executor,
    fetch: Fetch,
    source: ReturnType<typeof requireSources>[number],
  ): AsyncGenerator<string> {
    const { reader, params, context } = fetch;
    if (source.kind === 'library') {
      const { extra, filter } = await componentScope(reader, context);
      const query = { kind: 'component' as const, filter };
      if (WRITTEN_FORMATS.has(params.format) && (await writableKeys(executor, reader.workspaceId, query, params))) {
        yield* componentParts(executor, fetch, query, extra);
      } else {
        yield str(embedded(await componentsBody(fetch, { kind: 'all' })));
      }
      return;
    }
    const scope = await projectScope(reader, source.project, params, context);
    if (await projectWritable(executor, reader.workspaceId, params, scope)) {
      yield* projectParts(executor, fetch, scope, true);
    } else {
      yield str(embedded(await projectBody(fetch, scope)));
    }
  }

  /** The library's components as every components fetch names them: their name and folder. */
  async function componentScope(reader: Reader, context: Context) {
    const tree = await deps.folders.loadFolderTree(db, reader.workspaceId);
    const extra = (entity: TextEntity) => {
      const { name, folderId } = entity as Component;
      return { component: { name, folder: tree.developerIdOf(folderId) } };
    };
    return { tree, extra, filter: { ...context.filter } as ParsedFilter };
  }

  async function componentsBody(fetch: Fetch, scope: ComponentScope, write = false): Promise<LegacyBody> {
    const { reader, params, context } = fetch;
    const { tree, extra, filter } = await componentScope(reader, context);
    let keep: ((entity: TextEntity) => boolean) | undefined;
    if (scope.kind === 'folder') {
      if (!tree.byDeveloperId(scope.developerId)) throw notFound(folderNotFound(scope.developerId));
      filter.folders = [{ id: scope.developerId, excludeNestedFolders: true }];
    } else if (scope.kind === 'root') {
      filter.folders = [{ id: 'root', excludeNestedFolders: true }];
    } else if (scope.kind === 'project') {
      const items = await deps.texts.select(reader.workspaceId, reader.revision, {
        kind: 'text_item',
        filter: { projects: [scope.developerId] },
      });
      const used = new Set(
        items.entities.flatMap((e) => (items.select(e) && e.componentId !== null ? [e.componentId] : [])),
      );
      keep = (entity) => used.has(entity.id);
    }
    if (write && keep === undefined && WRITTEN_FORMATS.has(params.format)) {
      const query = { kind: 'component' as const, filter };
      const body = await written(async (executor) =>
        (await writableKeys(executor, reader.workspaceId, query, params))
          ? componentParts(executor, fetch, query, extra)
          : null,
      );
      if (body) return body;
    }
    const selection = await deps.texts.select(reader.workspaceId, reader.revision, { kind: 'component', filter });
    return body(fetch, selection, { keep, extra }, { id: LIBRARY_ID, name: LIBRARY_NAME, library: true });
  }

  return {
    ...createLegacyLists(deps, reach),

    /** GET /projects/:id: one project's text (or the library's, under its project-list id). */
    async projectText(reader: Reader, developerId: string, params: FetchParams): Promise<LegacyBody> {
      const access = await reach(reader.workspaceId);
      const [source] = requireSources(access, [developerId]);
      const context = await fetchContext(reader, params, access.baseLanguage);
      const fetch: Fetch = { reader, params, context };
      if (source?.kind !== 'project') return componentsBody(fetch, { kind: 'all' }, true);
      const { project } = source;
      const scope = await projectScope(reader, project, params, context);
      const exported = FILE_FORMATS.get(params.format);
      const contentType =
        exported === undefined || exported === 'json_icu' ? JSON_TYPE : fileFormats[exported].contentType;
      const body =
        WRITTEN_FORMATS.has(params.format) || exported !== undefined
          ? await written(
              async (executor) =>
                (await projectWritable(executor, reader.workspaceId, params, scope))
                  ? projectParts(executor, fetch, scope)
                  : null,
              contentType,
            )
          : null;
      return body ?? projectBody(fetch, scope);
    },

    /**
     * GET /projects: several projects' text, every reachable project when none is named, written
     * one source after another (each page by page when it can be, see `sourceParts`).
     */
    async projectsText(reader: Reader, params: FetchParams): Promise<LegacyBody> {
      const access = await reach(reader.workspaceId);
      const ids =
        params.projectIds ?? [...access.projects.values()].filter((p) => p.developerMode).map((p) => p.developerId);
      const sources = requireSources(access, ids);
      const fetch: Fetch = { reader, params, context: await fetchContext(reader, params, access.baseLanguage) };
      // The keys in the order, and with the values, of an object the sources were assigned to in
      // turn: array indexes first, a repeated id in its first place with its last source.
      const slots: Record<string, number> = {};
      for (const [index, id] of ids.entries()) slots[id] = index;
      const entries = Object.keys(slots).map((id) => [id, sources[slots[id] as number]] as const);
      async function* parts(executor: Executor): AsyncGenerator<string> {
        yield '{"projects":{';
        for (const [n, [id, source]] of entries.entries()) {
          yield `${n === 0 ? '' : ','}${str(id)}:`;
          yield* sourceParts(executor, fetch, source as (typeof sources)[number]);
        }
        yield `},"exported_at":${str(new Date().toISOString())}}`;
      }
      return (await written(async (executor) => parts(executor))) as LegacyBody;
    },

    /** GET /components, /component-folders/:id/components, /projects/:id/components. */
    async componentsText(reader: Reader, scope: ComponentScope, params: FetchParams): Promise<LegacyBody> {
      const access = await reach(reader.workspaceId);
      const [source] = scope.kind === 'project' ? requireSources(access, [scope.developerId]) : [];
      if (!access.library) throw libraryOff();
      const fetch: Fetch = { reader, params, context: await fetchContext(reader, params, access.baseLanguage) };
      // The library under its project-list id: all of its components.
      return componentsBody(fetch, source?.kind === 'library' ? { kind: 'all' } : scope, true);
    },
  };
}

export type LegacyReader = ReturnType<typeof createLegacyReader>;
