import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { nextTurn } from '../../shared/next-turn.js';
import type { WorkspaceService } from '../accounts/workspace.service.js';
import { type FoldersService, folderNotFound, ROOT_FOLDER_ID } from '../folders/folders.service.js';
import { type ProjectRef, type ProjectsService, projectNotFound } from '../projects/projects.service.js';
import type { StatusesService } from '../statuses/statuses.service.js';
import type { Component, TextItem, TextsReader } from '../texts/index.js';
import type { VariablesService } from '../variables/variables.service.js';
import {
  dedupeName,
  legacyFolderPredicate,
  legacyTableName,
  localeNotes,
  parseLegacyComponents,
  parseLegacyProjects,
} from './swift-driver.legacy.js';
import {
  type DriverEntry,
  type DriverTable,
  driverEntry,
  indexVariables,
  type ParsedFilter,
  type TextEntity,
  type TextSelection,
  type VariableIndex,
} from './swift-driver.model.js';
import type { CliDriverBody, LegacyDriverBody } from './swift-driver.schemas.js';
import { swiftDriverPieces } from './swift-source.js';

export interface SwiftDriverDeps {
  db: Kysely<Database>;
  texts: Pick<TextsReader, 'select' | 'pages'>;
  variables: Pick<VariablesService, 'listVariables'>;
  projects: Pick<ProjectsService, 'listProjectRefs'>;
  folders: Pick<FoldersService, 'loadFolderTree'>;
  statuses: Pick<StatusesService, 'keys'>;
  /** Whether the v1 API may reach the component library (a workspace setting). */
  workspace: Pick<WorkspaceService, 'libraryReachable'>;
}

/** Both clients name the component library's files `components.strings` / `.stringsdict`. */
export const COMPONENTS_TABLE = 'components';

/** A project's text items go to the table its files are named after. */
interface ProjectTable {
  ref: ProjectRef;
  table: string;
}

/**
 * The texts a query keeps, read page by page (the event loop gets a turn between pages, instead
 * of waiting for one query of the whole library).
 */
async function selected<T extends TextEntity>(pages: Promise<AsyncIterable<TextSelection<T>>>): Promise<T[]> {
  const out: T[] = [];
  for await (const { entities, select } of await pages) {
    for (const entity of entities) if (select(entity) !== null) out.push(entity);
    await nextTurn();
  }
  return out;
}

/** The projects a body names, in its order: an unknown id (or a base's) is a 400 naming the element. */
function namedProjects(refs: readonly ProjectRef[], ids: readonly string[]): ProjectRef[] {
  const byId = new Map(refs.filter((r) => r.kind === 'project').map((r) => [r.developerId, r]));
  return ids.map((id, i) => {
    const project = byId.get(id);
    if (!project) throw badRequest(`projects[${i}].id: ${projectNotFound(id)}`);
    return project;
  });
}

/** The accessors of some texts, with a turn of the event loop after every thousand. */
async function entriesOf(texts: readonly TextEntity[], index: VariableIndex): Promise<DriverEntry[]> {
  const out: DriverEntry[] = [];
  for (const [i, text] of texts.entries()) {
    out.push(driverEntry(text, index));
    if ((i + 1) % 1000 === 0) await nextTurn();
  }
  return out;
}

async function componentsTable(components: readonly Component[], index: VariableIndex): Promise<DriverTable> {
  return { name: COMPONENTS_TABLE, title: 'Components', entries: await entriesOf(components, index) };
}

/** One table per project, in the given order, holding its items in the order given (by developer ID). */
async function projectTables(
  items: readonly TextItem[],
  projects: readonly ProjectTable[],
  index: VariableIndex,
): Promise<DriverTable[]> {
  const byProject = new Map<number, TextItem[]>();
  for (const item of items) {
    const list = byProject.get(item.projectId);
    if (list) list.push(item);
    else byProject.set(item.projectId, [item]);
  }
  const tables: DriverTable[] = [];
  for (const { ref, table } of projects) {
    tables.push({
      name: table,
      title: `Project ${ref.name} (${ref.developerId})`,
      entries: await entriesOf(byProject.get(ref.id) ?? [], index),
    });
  }
  return tables;
}

const byDeveloperId = (a: ProjectRef, b: ProjectRef) =>
  a.developerId < b.developerId ? -1 : a.developerId > b.developerId ? 1 : 0;

export function createSwiftDriverService(deps: SwiftDriverDeps) {
  const { db } = deps;
  const variables = async (workspaceId: number) => indexVariables(await deps.variables.listVariables(db, workspaceId));

  /**
   * POST /v2/cli/swiftDriver: the components of the listed folders (all without a list) and the
   * text items of the listed projects (every project without a list), narrowed by the fetch
   * filters' statuses, tags and integrated flag. A project's table is its developer ID, the name
   * 5.x gives its files.
   */
  async function forCli(workspaceId: number, _revision: number, body: CliDriverBody): Promise<Buffer[]> {
    const [refs, tree, statuses, index] = await Promise.all([
      deps.projects.listProjectRefs(db, workspaceId),
      deps.folders.loadFolderTree(db, workspaceId),
      deps.statuses.keys(db, workspaceId),
      variables(workspaceId),
    ]);
    const folders = (body.components?.folders ?? []).map((folder, i) => {
      if (folder.id !== ROOT_FOLDER_ID && !tree.byDeveloperId(folder.id)) {
        throw badRequest(`components.folders[${i}].id: ${folderNotFound(folder.id)}`);
      }
      return { id: folder.id, excludeNestedFolders: folder.excludeNestedFolders ?? false };
    });
    body.statuses?.forEach((status, i) => {
      if (!statuses.has(status)) throw badRequest(`statuses[${i}]: '${status}' is not a status of the workspace`);
    });
    const listed = [
      ...new Set(
        namedProjects(
          refs,
          (body.projects ?? []).map((p) => p.id),
        ),
      ),
    ];
    const projects = listed.length > 0 ? listed : refs.filter((r) => r.kind === 'project').sort(byDeveloperId);

    const filter: ParsedFilter = {};
    if (body.statuses?.length) filter.statuses = body.statuses;
    if (body.tags?.values.length) filter.tags = { values: body.tags.values, operator: body.tags.operator ?? 'OR' };
    if (body.integrated !== undefined) filter.integrated = body.integrated;
    const [components, items] = await Promise.all([
      selected(
        deps.texts.pages(db, workspaceId, {
          kind: 'component',
          filter: folders.length > 0 ? { ...filter, folders } : filter,
          allVariantValues: true,
        }),
      ),
      projects.length === 0
        ? []
        : selected(
            deps.texts.pages(db, workspaceId, {
              kind: 'text_item',
              filter: { ...filter, projects: projects.map((p) => p.developerId) },
              allVariantValues: true,
            }),
          ),
    ]);
    const tables = projects.map((ref) => ({ ref, table: ref.developerId }));
    return swiftDriverPieces({
      tables: [await componentsTable(components, index), ...(await projectTables(items, tables, index))],
      notes: [],
    });
  }

  /**
   * POST /v1/ios/swift-driver: the sources of a 4.x config. Its projects must have developer mode
   * on, as every v1 read requires; their tables are named from the file names the client sends.
   */
  async function forLegacy(workspaceId: number, _revision: number, body: LegacyDriverBody, maxIds: number) {
    const wanted = parseLegacyProjects(body.projects ?? []);
    const components = parseLegacyComponents(body.components, maxIds);
    const [refs, tree, index] = await Promise.all([
      deps.projects.listProjectRefs(db, workspaceId),
      deps.folders.loadFolderTree(db, workspaceId),
      variables(workspaceId),
    ]);
    const named = namedProjects(
      refs,
      wanted.map((p) => p.id),
    );
    named.forEach((ref, i) => {
      if (!ref.developerMode)
        throw forbidden(`projects[${i}].id: developer mode is off for project ${ref.developerId}`);
    });
    const folderRowIds = components?.folders?.map((id, i) => {
      if (id === null) return null;
      const folder = tree.byDeveloperId(id);
      if (!folder) throw badRequest(`components.folders[${i}].id: ${folderNotFound(id)}`);
      return folder.id;
    });
    const inFolder = components && legacyFolderPredicate(components.root, folderRowIds ?? null);
    if (inFolder && !(await deps.workspace.libraryReachable(workspaceId))) {
      throw forbidden('components: developer mode is off for the component library (libraryDeveloperMode)');
    }

    // The client names each project's files once, in config order, deduplicating repeated names.
    const taken = new Set<string>();
    const projects = [...new Map(named.map((ref, i) => [ref.id, { ref, wanted: wanted[i]! }])).values()].map(
      ({ ref, wanted: { fileName, excludeComponents } }) => {
        if (fileName !== null) taken.add(fileName);
        const name = fileName ?? dedupeName(ref.name, taken);
        return { ref, table: legacyTableName(name), excludeComponents };
      },
    );
    const [library, items] = await Promise.all([
      inFolder
        ? selected(deps.texts.pages(db, workspaceId, { kind: 'component', filter: {}, allVariantValues: true }))
        : [],
      projects.length === 0
        ? []
        : selected(
            deps.texts.pages(db, workspaceId, {
              kind: 'text_item',
              filter: { projects: projects.map((p) => p.ref.developerId) },
              allVariantValues: true,
            }),
          ),
    ]);
    const withoutInstances = new Set(projects.filter((p) => p.excludeComponents).map((p) => p.ref.id));
    const kept = items.filter((item) => item.componentId === null || !withoutInstances.has(item.projectId));
    return swiftDriverPieces({
      tables: [
        ...(inFolder
          ? [
              await componentsTable(
                library.filter((c) => inFolder(c.folderId)),
                index,
              ),
            ]
          : []),
        ...(await projectTables(kept, projects, index)),
      ],
      notes: localeNotes(body.localeByVariantId),
    });
  }

  return { forCli, forLegacy };
}

export type SwiftDriverService = ReturnType<typeof createSwiftDriverService>;
