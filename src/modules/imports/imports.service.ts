/**
 * POST /v2/import: a localisation file read into a project's text items or the library's
 * components, as base text or a variant's text, in one write (rules in docs/import.md).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Limits } from '../../config.js';
import type { Database, Executor } from '../../db/schema.js';
import { MalformedFile } from '../../formats/parsers/index.js';
import { badRequest } from '../../http/errors.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { WritePath, WriteScope } from '../changes/index.js';
import type { ComponentsService } from '../components/index.js';
import type { FoldersService } from '../folders/folders.service.js';
import { baseNotFound, type ProjectsService, projectNotFound } from '../projects/projects.service.js';
import type { TextItemsService } from '../text-items/text-items.service.js';
import { loadTextsByDeveloperIds, type TextEntity, variantNotFoundMessage } from '../texts/index.js';
import type { Variable, VariablesService } from '../variables/variables.service.js';
import type { Variant, VariantsService } from '../variants/variants.service.js';
import { parseColumns } from './imports.files.js';
import {
  type ContentUpdate,
  type ImportColumn,
  type NewContent,
  type PlannedImport,
  planImport,
} from './imports.plan.js';
import type { ImportReport, ImportRequest } from './imports.types.js';

export interface ImportsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  accounts: Pick<AccountsService, 'baseLanguage' | 'userIdsByEmail'>;
  variants: Pick<VariantsService, 'listVariants'>;
  variables: Pick<VariablesService, 'listVariables'>;
  projects: Pick<ProjectsService, 'resolveProjects'>;
  blocks: Pick<BlocksService, 'resolveBlocks'>;
  folders: Pick<FoldersService, 'loadFolderTree'>;
  textItems: Pick<TextItemsService, 'importIn'>;
  components: Pick<ComponentsService, 'importIn'>;
}

export type ContentLimits = Pick<Limits, 'textChars' | 'notesChars'>;

/** Where the file goes: a project (row id) and block, or the library and a folder. */
type Destination =
  | { kind: 'text_item'; projectId: string; projectRowId: number; blockId?: string }
  | { kind: 'component'; folderId?: string };

export function createImportsService(deps: ImportsDeps) {
  const { db, writes } = deps;

  async function destination(executor: Executor, workspaceId: number, request: ImportRequest): Promise<Destination> {
    const { projectId, blockId, library, folderId } = request;
    const intoLibrary = library === true || folderId !== undefined;
    if (projectId !== undefined && intoLibrary)
      throw badRequest('Give either projectId or library (folderId), not both');
    if (projectId === undefined && !intoLibrary) throw badRequest('projectId or library=true is required');
    if (projectId === undefined) {
      if (blockId !== undefined) throw badRequest('blockId: blocks belong to projects; the library has folders');
      if (folderId !== undefined && folderId !== 'root') {
        const tree = await deps.folders.loadFolderTree(executor, workspaceId);
        if (!tree.byDeveloperId(folderId)) throw badRequest(`folderId: Folder id not found: ${folderId}`);
      }
      return { kind: 'component', ...(folderId !== undefined && folderId !== 'root' && { folderId }) };
    }
    const project = (await deps.projects.resolveProjects(executor, workspaceId, [projectId])).get(projectId);
    if (!project) throw badRequest(`projectId: ${projectNotFound(projectId)}`);
    if (project.kind === 'base') throw badRequest(`projectId: ${baseNotFound(projectId)}`);
    if (blockId !== undefined) {
      const blocks = await deps.blocks.resolveBlocks(executor, workspaceId, project.id, [blockId]);
      if (!blocks.has(blockId)) throw badRequest(`blockId: Block id not found: ${blockId}`);
    }
    return { kind: 'text_item', projectId, projectRowId: project.id, ...(blockId !== undefined && { blockId }) };
  }

  /** The file read against the workspace as it is now: what to create and update. */
  async function plan(executor: Executor, workspaceId: number, request: ImportRequest, limits: ContentLimits) {
    const target = await destination(executor, workspaceId, request);
    const [variants, variables, language] = await Promise.all([
      deps.variants.listVariants(executor, workspaceId),
      deps.variables.listVariables(executor, workspaceId),
      deps.accounts.baseLanguage(executor, workspaceId),
    ]);
    const columns = await readColumns(request, variants, variables, language);
    const entities = await existingTexts(executor, workspaceId, target.kind, columns);
    const planned = await planImport({
      columns,
      entities,
      variables,
      variableOrder: request.variableOrder ?? 'default',
      projectRowId: target.kind === 'text_item' ? target.projectRowId : null,
      limits,
      ...(request.skip && request.skip.length > 0 && { skip: new Set(request.skip) }),
    });
    return { target, planned };
  }

  /** `limits`: the content limits of the routes' schemas, which an import's texts keep too. */
  async function importFile(scope: WriteScope, request: ImportRequest, limits: ContentLimits): Promise<ImportReport> {
    const { workspaceId } = scope;
    if (request.dryRun) {
      const { planned } = await plan(db, workspaceId, request, limits);
      return { dryRun: true, ...planned.report };
    }
    // Outside the transaction: the accounts service reads on its own connection.
    const userIds = await deps.accounts.userIdsByEmail(workspaceId);
    return writes.write(scope, async (trx, progress) => {
      const { target, planned } = await plan(trx, workspaceId, request, limits);
      const richText = request.richText === 'html' ? { richText: 'html' as const } : {};
      // In parts, each checked and written by the services' own rules, inside the one transaction:
      // a part that fails leaves nothing of the import written. Each part's changes go into the
      // change log as soon as it is written, so that memory holds one part's, never the file's.
      for (const part of writeParts(planned, WRITE_PART_KEYS)) {
        const written =
          target.kind === 'text_item'
            ? await deps.textItems.importIn(trx, workspaceId, userIds, {
                projectId: target.projectId,
                create: part.create.map((c) => ({
                  ...c,
                  ...(target.blockId !== undefined && { blockId: target.blockId }),
                })),
                updates: part.updates,
                ...richText,
              })
            : await deps.components.importIn(trx, workspaceId, userIds, {
                create: part.create.map((c) => ({
                  ...c,
                  ...(target.folderId !== undefined && { folderId: target.folderId }),
                })),
                updates: part.updates,
                ...richText,
              });
        await progress.record(written);
        await nextTurn();
      }
      return { changes: [], result: { dryRun: false, ...planned.report } };
    });
  }

  /** The texts the file's keys name that exist, read a page of keys at a time. */
  async function existingTexts(
    executor: Executor,
    workspaceId: number,
    kind: Destination['kind'],
    columns: readonly ImportColumn[],
  ): Promise<Map<string, TextEntity>> {
    const keys = new Set<string>();
    for (const column of columns) for (const entry of column.file.entries) keys.add(entry.key);
    const all = [...keys];
    const entities = new Map<string, TextEntity>();
    for (let start = 0; start < all.length; start += READ_PAGE_KEYS) {
      const page = await loadTextsByDeveloperIds(executor, workspaceId, kind, all.slice(start, start + READ_PAGE_KEYS));
      for (const entity of page) entities.set(entity.developerId, entity);
      if (start + READ_PAGE_KEYS < all.length) await nextTurn();
    }
    return entities;
  }

  return { importFile };
}

export type ImportsService = ReturnType<typeof createImportsService>;

/**
 * Keys read, checked and written per part of an import. On SQLite a part is one synchronous
 * block of the event loop (the driver does not wait on anything, and the awaits between its
 * statements are microtasks, which run before any other request): 500 keys, with their change
 * log, take 10 to 40 ms on a busy machine (2,000 took 100 to 400), and other requests are
 * answered between parts.
 */
const WRITE_PART_KEYS = 500;

/** Keys whose texts are read per query: 2,000 existing texts (with their values) took 150 ms on SQLite. */
const READ_PAGE_KEYS = 500;

interface WritePart {
  create: NewContent[];
  updates: Array<{ variantId?: string; updates: ContentUpdate[] }>;
}

/**
 * The plan as parts of at most `size` texts: the creates first, then each batch of updates in
 * order. A part's elements are let go of in the plan once handed out, so that what the write
 * holds shrinks as it goes.
 */
function* writeParts(planned: PlannedImport, size: number): Generator<WritePart> {
  const create = planned.create;
  planned.create = [];
  for (let start = 0; start < create.length; start += size) {
    const part = create.slice(start, start + size);
    (create as unknown[]).fill(undefined, start, start + size);
    yield { create: part, updates: [] };
  }
  for (const batch of planned.updates) {
    const all = batch.updates;
    batch.updates = [];
    for (let start = 0; start < all.length; start += size) {
      const updates = all.slice(start, start + size);
      (all as unknown[]).fill(undefined, start, start + size);
      yield {
        create: [],
        updates: [batch.variantId === undefined ? { updates } : { variantId: batch.variantId, updates }],
      };
    }
  }
}

/** The parsed columns of the request; a malformed file is a 400 naming the place. */
async function readColumns(
  request: ImportRequest,
  variants: readonly Variant[],
  variables: readonly Variable[],
  language: string,
): Promise<ImportColumn[]> {
  const variantOf = (developerId: string | undefined, field: string) => {
    if (developerId === undefined || developerId === 'base') return null;
    const row = variants.find((v) => v.developerId === developerId);
    if (!row) throw badRequest(`${field}: ${variantNotFoundMessage(developerId)}`);
    return row;
  };
  try {
    return await parseColumns(request, language, variables, variantOf);
  } catch (error) {
    if (error instanceof MalformedFile) throw badRequest(`${request.format} file, ${error.message}`);
    throw error;
  }
}

export type { PlannedImport };
