import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import type { OpenSnapshot } from '../../db/snapshot.js';
import { bodyOf } from '../../http/cache/index.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { nextTurn } from '../../shared/next-turn.js';
import type { WorkspaceService } from '../accounts/workspace.service.js';
import { type FoldersService, folderNotFound, ROOT_FOLDER_ID } from '../folders/folders.service.js';
import { type ProjectRef, type ProjectsService, projectNotFound } from '../projects/projects.service.js';
import type { StatusesService } from '../statuses/statuses.service.js';
import type { TextEntity, TextKey, TextQuery, TextsReader } from '../texts/index.js';
import type { VariablesService } from '../variables/variables.service.js';
import {
  dedupeName,
  legacyFolderPredicate,
  legacyTableName,
  localeNotes,
  parseLegacyComponents,
  parseLegacyProjects,
} from './swift-driver.legacy.js';
import { driverEntry, indexVariables, type ParsedFilter, type VariableIndex } from './swift-driver.model.js';
import type { CliDriverBody, LegacyDriverBody } from './swift-driver.schemas.js';
import { AccessorNames } from './swift-names.js';
import { accessorSource, FILE_END, fileStart, naturalName, tableStart } from './swift-source.js';

export interface SwiftDriverDeps {
  db: Kysely<Database>;
  texts: Pick<TextsReader, 'pages' | 'keys'>;
  variables: Pick<VariablesService, 'listVariables'>;
  projects: Pick<ProjectsService, 'listProjectRefs'>;
  folders: Pick<FoldersService, 'loadFolderTree'>;
  statuses: Pick<StatusesService, 'keys'>;
  /** Whether the v1 API may reach the component library (a workspace setting). */
  workspace: Pick<WorkspaceService, 'libraryReachable'>;
  /** Consistent reads over many queries (the key passes and the pages agree); none: the shared connection. */
  snapshot?: OpenSnapshot;
}

/** Both clients name the component library's files `components.strings` / `.stringsdict`. */
export const COMPONENTS_TABLE = 'components';

/** Source gathered before it is handed on as one chunk. */
const CHUNK_BYTES = 64 * 1024;

/** Accessors rendered between two turns of the event loop, within a page. */
const ENTRIES_PER_TURN = 250;

/** A key's place in the file: its table and developer ID (unique within a table). */
const keyOf = (table: number, developerId: string) => `${table}:${developerId}`;

const keyFields = (entity: TextEntity): Pick<TextKey, 'folderId' | 'componentId'> => ({
  folderId: entity.kind === 'component' ? entity.folderId : null,
  componentId: entity.kind === 'text_item' ? entity.componentId : null,
});

/** The projects a body names, in its order: an unknown id (or a base's) is a 400 naming the element. */
function namedProjects(refs: readonly ProjectRef[], ids: readonly string[]): ProjectRef[] {
  const byId = new Map(refs.filter((r) => r.kind === 'project').map((r) => [r.developerId, r]));
  return ids.map((id, i) => {
    const project = byId.get(id);
    if (!project) throw badRequest(`projects[${i}].id: ${projectNotFound(id)}`);
    return project;
  });
}

/** One table of the file: its name and title, the query of its keys, and what the query leaves to the driver. */
interface TableSource {
  name: string;
  title: string;
  query: TextQuery;
  /** The keys the table keeps among those the query selects (a v1 folder rule, no instances). */
  keep?: (key: Pick<TextKey, 'folderId' | 'componentId'>) => boolean;
}

const byDeveloperId = (a: ProjectRef, b: ProjectRef) =>
  a.developerId < b.developerId ? -1 : a.developerId > b.developerId ? 1 : 0;

export function createSwiftDriverService(deps: SwiftDriverDeps) {
  const { db } = deps;
  const openSnapshot = deps.snapshot ?? (async () => ({ db, close: async () => {} }));

  /**
   * The file of some tables, read from one snapshot: the keys first (the accessor names depend on
   * every key), then the texts page by page, written as they are read. Every query is resolved
   * before the answer starts, so a bad reference is an error status, never a cut file.
   */
  async function driverFile(workspaceId: number, tables: readonly TableSource[], notes: readonly string[]) {
    const snapshot = await openSnapshot();
    try {
      const index = indexVariables(await deps.variables.listVariables(snapshot.db, workspaceId));
      const names = await accessorNames(snapshot.db, workspaceId, tables);
      const chunks = writeFile({ executor: snapshot.db, workspaceId, tables, notes, names, index });
      return await bodyOf(chunks, () => snapshot.close());
    } catch (error) {
      await snapshot.close();
      throw error;
    }
  }

  /** Every key of the tables, in file order (a page at a time, a turn of the event loop between pages). */
  async function eachKey(
    executor: Executor,
    workspaceId: number,
    tables: readonly TableSource[],
    visit: (table: number, key: TextKey) => void,
  ): Promise<void> {
    for (const [t, table] of tables.entries()) {
      for await (const page of await deps.texts.keys(executor, workspaceId, table.query)) {
        for (const key of page) if (!table.keep || table.keep(key)) visit(t, key);
        await nextTurn();
      }
    }
  }

  /** The accessor names: one pass over the keys, and a second only when some may clash (swift-names.ts). */
  async function accessorNames(executor: Executor, workspaceId: number, tables: readonly TableSource[]) {
    const names = new AccessorNames();
    await eachKey(executor, workspaceId, tables, (_t, key) => names.add(naturalName(key.developerId)));
    if (names.endFirstPass()) {
      await eachKey(executor, workspaceId, tables, (t, key) =>
        names.observe(keyOf(t, key.developerId), naturalName(key.developerId)),
      );
      names.resolve();
    }
    return names;
  }

  /** The file's text in chunks of about `CHUNK_BYTES`, read page by page as the chunks are taken. */
  async function* writeFile(file: {
    executor: Executor;
    workspaceId: number;
    tables: readonly TableSource[];
    notes: readonly string[];
    names: AccessorNames;
    index: VariableIndex;
  }): AsyncGenerator<Buffer> {
    const { executor, workspaceId, tables, notes, names, index } = file;
    let out = fileStart(
      tables.map((t) => t.name),
      notes,
    );
    for (const [t, table] of tables.entries()) {
      out += tableStart(table);
      for await (const { entities, select } of await deps.texts.pages(executor, workspaceId, table.query)) {
        for (const [i, entity] of entities.entries()) {
          if (select(entity) === null || (table.keep && !table.keep(keyFields(entity)))) continue;
          const natural = naturalName(entity.developerId);
          const name = names.nameOf(keyOf(t, entity.developerId), natural);
          out += accessorSource(driverEntry(entity, index), table.name, name);
          if (out.length >= CHUNK_BYTES) {
            yield Buffer.from(out);
            out = '';
          }
          // A page of PostgreSQL's is 1,000 texts: a turn inside it too.
          if ((i + 1) % ENTRIES_PER_TURN === 0) await nextTurn();
        }
        await nextTurn();
      }
    }
    yield Buffer.from(out + FILE_END);
  }

  /**
   * POST /v2/cli/swiftDriver: the components of the listed folders (all without a list) and the
   * text items of the listed projects (every project without a list), narrowed by the fetch
   * filters' statuses, tags and integrated flag. A project's table is its developer ID, the name
   * 5.x gives its files.
   */
  async function forCli(workspaceId: number, _revision: number, body: CliDriverBody): Promise<Buffer | Readable> {
    const [refs, tree, statuses] = await Promise.all([
      deps.projects.listProjectRefs(db, workspaceId),
      deps.folders.loadFolderTree(db, workspaceId),
      deps.statuses.keys(db, workspaceId),
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
    const tables: TableSource[] = [
      {
        name: COMPONENTS_TABLE,
        title: 'Components',
        query: {
          kind: 'component',
          filter: folders.length > 0 ? { ...filter, folders } : filter,
          allVariantValues: true,
        },
      },
      // One table per project, each read on its own in developer-ID order.
      ...projects.map(
        (ref): TableSource => ({
          name: ref.developerId,
          title: `Project ${ref.name} (${ref.developerId})`,
          query: { kind: 'text_item', filter: { ...filter, projects: [ref.developerId] }, allVariantValues: true },
        }),
      ),
    ];
    return driverFile(workspaceId, tables, []);
  }

  /**
   * POST /v1/ios/swift-driver: the sources of a 4.x config. Its projects must have developer mode
   * on, as every v1 read requires; their tables are named from the file names the client sends.
   */
  async function forLegacy(
    workspaceId: number,
    _revision: number,
    body: LegacyDriverBody,
    maxIds: number,
  ): Promise<Buffer | Readable> {
    const wanted = parseLegacyProjects(body.projects ?? []);
    const components = parseLegacyComponents(body.components, maxIds);
    const [refs, tree] = await Promise.all([
      deps.projects.listProjectRefs(db, workspaceId),
      deps.folders.loadFolderTree(db, workspaceId),
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
      ({ ref, wanted: { fileName, excludeComponents } }): TableSource => {
        if (fileName !== null) taken.add(fileName);
        const name = fileName ?? dedupeName(ref.name, taken);
        return {
          name: legacyTableName(name),
          title: `Project ${ref.name} (${ref.developerId})`,
          query: { kind: 'text_item', filter: { projects: [ref.developerId] }, allVariantValues: true },
          ...(excludeComponents && { keep: (key) => key.componentId === null }),
        };
      },
    );
    const library: TableSource[] = inFolder
      ? [
          {
            name: COMPONENTS_TABLE,
            title: 'Components',
            query: { kind: 'component', filter: {}, allVariantValues: true },
            keep: (key) => inFolder(key.folderId),
          },
        ]
      : [];
    return driverFile(workspaceId, [...library, ...projects], localeNotes(body.localeByVariantId));
  }

  return { forCli, forLegacy };
}

export type SwiftDriverService = ReturnType<typeof createSwiftDriverService>;
