import type { LegacyText } from '../../formats/legacy/index.js';
import { badRequest, notFound } from '../../http/errors.js';
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

export type { LegacyReadDeps, Reader };

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

  async function componentsBody(reader: Reader, scope: ComponentScope, params: FetchParams, context: Context) {
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
    const selection = await deps.texts.select(reader.workspaceId, reader.revision, { kind: 'component', filter });
    const extra = (entity: TextEntity) => {
      const { name, folderId } = entity as Component;
      return { component: { name, folder: tree.developerIdOf(folderId) } };
    };
    return body(params, context, selection, keep, extra, { id: LIBRARY_ID, name: LIBRARY_NAME, library: true });
  }

  return {
    ...createLegacyLists(deps, reach),

    /** GET /projects/:id: one project's text (or the library's, under its project-list id). */
    async projectText(reader: Reader, developerId: string, params: FetchParams): Promise<LegacyBody> {
      const access = await reach(reader.workspaceId);
      const [source] = requireSources(access, [developerId]);
      const context = await fetchContext(reader, params, access.baseLanguage);
      if (source?.kind !== 'project') return componentsBody(reader, { kind: 'all' }, params, context);
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
      return componentsBody(reader, source?.kind === 'library' ? { kind: 'all' } : scope, params, context);
    },
  };
}

export type LegacyReader = ReturnType<typeof createLegacyReader>;
