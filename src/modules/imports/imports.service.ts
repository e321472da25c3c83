/**
 * POST /v2/import: a localisation file read into a project's text items or the library's
 * components, as base text or a variant's text, in one write (rules in docs/import.md).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Limits } from '../../config.js';
import type { Database, Executor } from '../../db/schema.js';
import { onWriteThread } from '../../db/write-thread.js';
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
import type { FileKey } from './imports.parse.js';
import { type ContentUpdate, createPlanner, type NewContent, type SlicePlan } from './imports.plan.js';
import { ImportReportWriter } from './imports.report.js';
import type { ImportRequest } from './imports.types.js';

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

/** One import's run: the request, its limits, the report it goes into, and how it is written. */
interface ImportRun {
  request: ImportRequest;
  /** The content limits an import's texts keep. */
  limits: ContentLimits;
  /** Where the answer goes, a slice of keys at a time. */
  report: ImportReportWriter;
  /** Writes one slice's plan to the destination; null for a dry run, which writes nothing. */
  write: ((target: Destination, slice: SlicePlan) => Promise<void>) | null;
}

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

  /**
   * The file read, planned and (with `write`) written a slice of keys at a time: each slice's
   * existing texts are read, its plan made, written and its part of the answer put in the report
   * before the next slice is taken from the parse, so memory holds a slice, never the file's plan.
   */
  async function run(executor: Executor, workspaceId: number, job: ImportRun): Promise<void> {
    const { request, limits, report, write } = job;
    const target = await destination(executor, workspaceId, request);
    const [variants, variables, language] = await Promise.all([
      deps.variants.listVariants(executor, workspaceId),
      deps.variables.listVariables(executor, workspaceId),
      deps.accounts.baseLanguage(executor, workspaceId),
    ]);
    const { columns, source } = await readColumns(request, variants, variables, language);
    try {
      const planner = createPlanner(
        {
          columns,
          variables,
          variableOrder: request.variableOrder ?? 'default',
          projectRowId: target.kind === 'text_item' ? target.projectRowId : null,
          limits,
          ...(request.skip && request.skip.length > 0 && { skip: new Set(request.skip) }),
        },
        source.skipped,
        report,
      );
      let next = source.next();
      for (;;) {
        const keys = await next;
        if (keys === null) break;
        // The parse thread readies the next slice while this one is read, planned and written.
        next = source.next();
        next.catch(() => undefined);
        const entities = await existingTexts(executor, workspaceId, target.kind, keys);
        const slice = planner.planSlice(keys, entities);
        if (write) await write(target, slice);
        await nextTurn();
      }
      planner.finish();
    } finally {
      source.close();
    }
  }

  /**
   * `limits`: the content limits of the routes' schemas, which an import's texts keep too. The
   * answer is the report, to be sent (`json()`) and closed by the caller; nothing of it is held
   * once the import fails.
   */
  async function importFile(
    scope: WriteScope,
    request: ImportRequest,
    limits: ContentLimits,
  ): Promise<ImportReportWriter> {
    const { workspaceId } = scope;
    const report = new ImportReportWriter(request.dryRun === true);
    try {
      if (request.dryRun) {
        await run(db, workspaceId, { request, limits, report, write: null });
        return report;
      }
      // Outside the transaction: the accounts service reads on its own connection.
      const userIds = await deps.accounts.userIdsByEmail(workspaceId);
      const richText = request.richText === 'html' ? { richText: 'html' as const } : {};
      // On SQLite the transaction runs on the write thread: its statements and its commit (which
      // for 200,000 keys reads back hundreds of megabytes of log) do not hold the event loop.
      return await onWriteThread(() =>
        writes.write(scope, async (trx, progress) => {
          // Each slice checked and written by the services' own rules, inside the one transaction: a
          // slice that fails leaves nothing of the import written. Each part's changes go into the
          // change log as soon as it is written, so that memory holds one part's, never the file's.
          const writeSlice = async (target: Destination, slice: SlicePlan) => {
            const parts: WritePart[] = [];
            if (slice.create.length > 0) parts.push({ create: slice.create, updates: [] });
            for (const batch of slice.updates)
              if (batch.updates.length > 0) parts.push({ create: [], updates: [batch] });
            for (const part of parts) {
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
          };
          await run(trx, workspaceId, { request, limits, report, write: writeSlice });
          return { changes: [], result: report };
        }),
      );
    } catch (error) {
      report.close();
      throw error;
    }
  }

  /** The texts of a slice's keys that exist: one query (a slice is `SLICE_KEYS`, 500 keys). */
  async function existingTexts(
    executor: Executor,
    workspaceId: number,
    kind: Destination['kind'],
    keys: readonly FileKey[],
  ): Promise<Map<string, TextEntity>> {
    const page = await loadTextsByDeveloperIds(
      executor,
      workspaceId,
      kind,
      keys.map((key) => key.key),
    );
    return new Map(page.map((entity) => [entity.developerId, entity]));
  }

  return { importFile };
}

export type ImportsService = ReturnType<typeof createImportsService>;

/**
 * What one call of the services writes: a slice's creates, or one batch of its updates, at most
 * `SLICE_KEYS` (500) texts. Its statements run on the write thread (SQLite) or the database
 * (PostgreSQL); the event loop holds the part's own work between them, and a turn of the event
 * loop follows each part. When the statements ran on the event loop (SQLite's driver never
 * waits), a part was one block of it: 500 keys took 10 to 40 ms on a busy machine, 2,000 took
 * 100 to 400.
 */
interface WritePart {
  create: NewContent[];
  updates: Array<{ variantId?: string; updates: ContentUpdate[] }>;
}

/** The parsed columns of the request; a malformed file is a 400 naming the place. */
async function readColumns(
  request: ImportRequest,
  variants: readonly Variant[],
  variables: readonly Variable[],
  language: string,
): Promise<Awaited<ReturnType<typeof parseColumns>>> {
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
