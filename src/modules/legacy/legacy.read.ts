import type { Executor } from '../../db/schema.js';
import type { LegacyText } from '../../formats/legacy/index.js';
import { badRequest, notFound } from '../../http/errors.js';
import { bodyOf } from '../../shared/chunked-body.js';
import { nextTurn } from '../../shared/next-turn.js';
import { buildDocument } from '../exports/exports.service.js';
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
import { bodyEnds, memberJson, projectWriter, WRITTEN_FORMATS, writableBlocks, writableKey } from './legacy.written.js';

export type { LegacyReadDeps, Reader };

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

  function body(
    params: FetchParams,
    context: Context,
    selection: TextSelection,
    keep: ((entity: TextEntity) => boolean) | undefined,
    extra: (entity: TextEntity) => Pick<LegacyText, 'component' | 'block'>,
    header: { id: string; name: string; library: boolean },
  ): LegacyBody {
    const { variant, variables, locale } = context;
    const legacy = legacySelection(selection, { variantId: variant?.id ?? null, status: params.status, keep });
    const document = buildDocument(legacy, variant, variables, locale, exportOptions(params.format));
    return renderBody({
      format: params.format,
      texts: legacyTexts(legacy, document, extra),
      document,
      richText: params.richText,
      header: { ...header, exportedAt: new Date().toISOString() },
    });
  }

  /** What a project fetch reads besides the texts: its filter, its blocks, its scope and the block of a text. */
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
    return { filter, blocks: [...blocks.values()], keep, extra };
  }

  type ProjectScope = Awaited<ReturnType<typeof projectScope>>;

  async function projectBody(
    reader: Reader,
    project: ProjectSource,
    params: FetchParams,
    context: Context,
    scope: ProjectScope,
  ) {
    const query = { kind: 'text_item' as const, filter: scope.filter, sort: 'project_order' as const };
    const selection = await deps.texts.select(reader.workspaceId, reader.revision, query);
    const header = { id: project.developerId, name: project.name, library: false };
    return body(params, context, selection, scope.keep, scope.extra, header);
  }

  /**
   * A body written from one snapshot as the client reads (never the whole selection in memory):
   * `parts` answers its parts read through the snapshot, or null when it must be built whole.
   */
  async function written(
    parts: (executor: Executor) => Promise<AsyncIterable<string> | null>,
  ): Promise<LegacyBody | null> {
    const snapshot = deps.snapshot ? await deps.snapshot() : { db, close: async () => {} };
    try {
      const chosen = await parts(snapshot.db);
      if (!chosen) {
        await snapshot.close();
        return null;
      }
      return { written: await bodyOf(inChunks(chosen), () => snapshot.close()) };
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
    if (!WRITTEN_FORMATS.has(params.format)) return false;
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
    workspaceId: number,
    query: { kind: 'component'; filter: ParsedFilter },
    params: FetchParams,
    context: Context,
    extra: (entity: TextEntity) => Pick<LegacyText, 'component' | 'block'>,
  ): AsyncGenerator<string> {
    const { variant, variables, locale } = context;
    const ends = bodyEnds(params.format, { id: LIBRARY_ID, name: LIBRARY_NAME, exportedAt: new Date().toISOString() });
    const rules = { variantId: variant?.id ?? null, status: params.status };
    yield ends.open;
    let first = true;
    for await (const page of await deps.texts.pages(executor, workspaceId, query)) {
      const legacy = legacySelection(page as TextSelection, rules);
      const document = buildDocument(legacy, variant, variables, locale, exportOptions(params.format));
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
    workspaceId: number,
    project: ProjectSource,
    params: FetchParams,
    context: Context,
    scope: ProjectScope,
  ): AsyncGenerator<string> {
    const { variant, variables, locale } = context;
    const header = { id: project.developerId, name: project.name, exportedAt: new Date().toISOString() };
    const writer = projectWriter(params.format, header, params.richText);
    const rules = { variantId: variant?.id ?? null, status: params.status, keep: scope.keep };
    const query = { kind: 'text_item' as const, filter: scope.filter, sort: 'project_order' as const };
    yield writer.open;
    for await (const page of await deps.texts.pages(executor, workspaceId, query)) {
      const legacy = legacySelection(page as TextSelection, rules);
      const document = buildDocument(legacy, variant, variables, locale, exportOptions(params.format));
      let out = '';
      for (const text of legacyTexts(legacy, document, scope.extra)) out += writer.add(text);
      yield out;
      await nextTurn();
    }
    yield writer.close();
  }

  /** Whether a project's body can be written page by page: its keys, and in `full` its block names. */
  async function projectWritable(executor: Executor, workspaceId: number, params: FetchParams, scope: ProjectScope) {
    if (
      !writableBlocks(
        params.format,
        scope.blocks.map((block) => block.name),
      )
    )
      return false;
    return writableKeys(executor, workspaceId, { kind: 'text_item', filter: scope.filter }, params);
  }

  /**
   * One source's body inside `GET /projects`, read through `executor`: written page by page when it
   * can be, else built whole (one source at a time) and serialized.
   */
  async function* sourceParts(
    executor: Executor,
    reader: Reader,
    source: ReturnType<typeof requireSources>[number],
    params: FetchParams,
    context: Context,
  ): AsyncGenerator<string> {
    if (source.kind === 'library') {
      const { extra, filter } = await componentScope(reader, context);
      const query = { kind: 'component' as const, filter };
      if (await writableKeys(executor, reader.workspaceId, query, params)) {
        yield* componentParts(executor, reader.workspaceId, query, params, context, extra);
      } else {
        yield str(embedded(await componentsBody(reader, { kind: 'all' }, params, context)));
      }
      return;
    }
    const scope = await projectScope(reader, source.project, params, context);
    if (await projectWritable(executor, reader.workspaceId, params, scope)) {
      yield* projectParts(executor, reader.workspaceId, source.project, params, context, scope);
    } else {
      yield str(embedded(await projectBody(reader, source.project, params, context, scope)));
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

  async function componentsBody(
    reader: Reader,
    scope: ComponentScope,
    params: FetchParams,
    context: Context,
    write = false,
  ): Promise<LegacyBody> {
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
          ? componentParts(executor, reader.workspaceId, query, params, context, extra)
          : null,
      );
      if (body) return body;
    }
    const selection = await deps.texts.select(reader.workspaceId, reader.revision, { kind: 'component', filter });
    return body(params, context, selection, keep, extra, { id: LIBRARY_ID, name: LIBRARY_NAME, library: true });
  }

  return {
    ...createLegacyLists(deps, reach),

    /** GET /projects/:id: one project's text (or the library's, under its project-list id). */
    async projectText(reader: Reader, developerId: string, params: FetchParams): Promise<LegacyBody> {
      const access = await reach(reader.workspaceId);
      const [source] = requireSources(access, [developerId]);
      const context = await fetchContext(reader, params, access.baseLanguage);
      if (source?.kind !== 'project') return componentsBody(reader, { kind: 'all' }, params, context, true);
      const { project } = source;
      const scope = await projectScope(reader, project, params, context);
      const body = WRITTEN_FORMATS.has(params.format)
        ? await written(async (executor) =>
            (await projectWritable(executor, reader.workspaceId, params, scope))
              ? projectParts(executor, reader.workspaceId, project, params, context, scope)
              : null,
          )
        : null;
      return body ?? projectBody(reader, project, params, context, scope);
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
      const context = await fetchContext(reader, params, access.baseLanguage);
      // The keys in the order, and with the values, of an object the sources were assigned to in
      // turn: array indexes first, a repeated id in its first place with its last source.
      const slots: Record<string, number> = {};
      for (const [index, id] of ids.entries()) slots[id] = index;
      const entries = Object.keys(slots).map((id) => [id, sources[slots[id] as number]] as const);
      async function* parts(executor: Executor): AsyncGenerator<string> {
        yield '{"projects":{';
        for (const [n, [id, source]] of entries.entries()) {
          yield `${n === 0 ? '' : ','}${str(id)}:`;
          yield* sourceParts(executor, reader, source as (typeof sources)[number], params, context);
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
      const context = await fetchContext(reader, params, access.baseLanguage);
      // The library under its project-list id: all of its components.
      return componentsBody(reader, source?.kind === 'library' ? { kind: 'all' } : scope, params, context, true);
    },
  };
}

export type LegacyReader = ReturnType<typeof createLegacyReader>;
