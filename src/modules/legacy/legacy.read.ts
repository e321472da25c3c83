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
import { bodyEnds, memberJson, WRITTEN_FORMATS, writableKey } from './legacy.written.js';

export type { LegacyReadDeps, Reader };

/** Bytes of JSON gathered before they are handed on. */
const CHUNK_BYTES = 64 * 1024;

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

  async function projectBody(
    reader: Reader,
    projectRowId: number,
    header: { id: string; name: string },
    params: FetchParams,
    context: Context,
  ) {
    const filter: ParsedFilter = { ...context.filter, projects: [header.id] };
    const [selection, blocks] = await Promise.all([
      deps.texts.select(reader.workspaceId, reader.revision, { kind: 'text_item', filter, sort: 'project_order' }),
      deps.blocks.loadBlocks(db, reader.workspaceId, [projectRowId]),
    ]);
    const keep = params.excludeComponents
      ? (entity: TextEntity) => (entity as TextItem).componentId === null
      : undefined;
    const extra = (entity: TextEntity) => {
      const { blockId } = entity as TextItem;
      return { block: blockId === null ? null : (blocks.get(blockId)?.name ?? null) };
    };
    return body(params, context, selection, keep, extra, { ...header, library: false });
  }

  /**
   * A component fetch in `flat`, `structured` or `full`, written page by page from one snapshot
   * as the client reads (never the whole selection in memory); null when one of the selected
   * developer IDs would put the whole body's keys in another order (`writableKey`), found by a
   * first pass over the keys: the body is then built whole.
   */
  async function writtenComponents(
    reader: Reader,
    filter: ParsedFilter,
    params: FetchParams,
    context: Context,
    extra: (entity: TextEntity) => Pick<LegacyText, 'component' | 'block'>,
  ): Promise<LegacyBody | null> {
    const snapshot = deps.snapshot ? await deps.snapshot() : { db, close: async () => {} };
    try {
      const query = { kind: 'component' as const, filter };
      let writable = true;
      for await (const keys of await deps.texts.keys(snapshot.db, reader.workspaceId, query)) {
        // Leaving the loop ends the pages (and a PostgreSQL cursor) before the snapshot closes.
        writable = keys.every((key) => writableKey(params.format, key.developerId));
        if (!writable) break;
        await nextTurn();
      }
      if (!writable) {
        await snapshot.close();
        return null;
      }
      const chunks = writeComponents(snapshot.db, reader.workspaceId, query, params, context, extra);
      return { written: await bodyOf(chunks, () => snapshot.close()) };
    } catch (error) {
      await snapshot.close();
      throw error;
    }
  }

  async function* writeComponents(
    executor: Executor,
    workspaceId: number,
    query: { kind: 'component'; filter: ParsedFilter },
    params: FetchParams,
    context: Context,
    extra: (entity: TextEntity) => Pick<LegacyText, 'component' | 'block'>,
  ): AsyncGenerator<Buffer> {
    const { variant, variables, locale } = context;
    const ends = bodyEnds(params.format, { id: LIBRARY_ID, name: LIBRARY_NAME, exportedAt: new Date().toISOString() });
    const rules = { variantId: variant?.id ?? null, status: params.status };
    let out = ends.open;
    let first = true;
    for await (const page of await deps.texts.pages(executor, workspaceId, query)) {
      const legacy = legacySelection(page as TextSelection, rules);
      const document = buildDocument(legacy, variant, variables, locale, exportOptions(params.format));
      for (const text of legacyTexts(legacy, document, extra)) {
        out += first ? '' : ',';
        out += memberJson(params.format, text, params.richText);
        first = false;
      }
      if (out.length >= CHUNK_BYTES) {
        yield Buffer.from(out);
        out = '';
      }
      await nextTurn();
    }
    yield Buffer.from(out + ends.close);
  }

  async function componentsBody(
    reader: Reader,
    scope: ComponentScope,
    params: FetchParams,
    context: Context,
    written = false,
  ) {
    const tree = await deps.folders.loadFolderTree(db, reader.workspaceId);
    const filter: ParsedFilter = { ...context.filter };
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
    const extra = (entity: TextEntity) => {
      const { name, folderId } = entity as Component;
      return { component: { name, folder: tree.developerIdOf(folderId) } };
    };
    if (written && keep === undefined && WRITTEN_FORMATS.has(params.format)) {
      const body = await writtenComponents(reader, filter, params, context, extra);
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
      return projectBody(reader, project.id, { id: project.developerId, name: project.name }, params, context);
    },

    /** GET /projects: several projects' text, every reachable project when none is named. */
    async projectsText(reader: Reader, params: FetchParams) {
      const access = await reach(reader.workspaceId);
      const ids =
        params.projectIds ?? [...access.projects.values()].filter((p) => p.developerMode).map((p) => p.developerId);
      const sources = requireSources(access, ids);
      const context = await fetchContext(reader, params, access.baseLanguage);
      const projects: Record<string, unknown> = {};
      for (const [index, source] of sources.entries()) {
        const result =
          source.kind === 'library'
            ? await componentsBody(reader, { kind: 'all' }, params, context)
            : await projectBody(
                reader,
                source.project.id,
                { id: source.project.developerId, name: source.project.name },
                params,
                context,
              );
        projects[ids[index] as string] = embedded(result);
      }
      return { projects, exported_at: new Date().toISOString() };
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
