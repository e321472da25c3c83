/**
 * POST /v2/import: a localisation file read into a project's text items or the library's
 * components, as base text or a variant's text, in one write (rules in docs/import.md).
 */
import type { Kysely } from 'kysely';
import type { Limits } from '../../config.js';
import type { Database, Executor, VariantRow } from '../../db/schema.js';
import { MalformedFile } from '../../formats/parsers/index.js';
import { badRequest } from '../../http/errors.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { WritePath, WriteScope } from '../changes/index.js';
import type { ComponentsService } from '../components/index.js';
import type { FoldersService } from '../folders/folders.service.js';
import { baseNotFound, type ProjectsService, projectNotFound } from '../projects/projects.service.js';
import type { TextItemsService } from '../text-items/text-items.service.js';
import { loadTextsByDeveloperIds, variantNotFoundMessage } from '../texts/index.js';
import type { Variable, VariablesService } from '../variables/variables.service.js';
import type { VariantsService } from '../variants/variants.service.js';
import { parseColumns } from './imports.files.js';
import { type ImportColumn, type PlannedImport, planImport } from './imports.plan.js';
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
    const columns = readColumns(request, variants, variables, language);
    const keys = [...new Set(columns.flatMap((column) => column.file.entries.map((entry) => entry.key)))];
    const entities = await loadTextsByDeveloperIds(executor, workspaceId, target.kind, keys);
    const planned = planImport({
      columns,
      entities: new Map(entities.map((entity) => [entity.developerId, entity])),
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
    return writes.write(scope, async (trx) => {
      const { target, planned } = await plan(trx, workspaceId, request, limits);
      const richText = request.richText === 'html' ? { richText: 'html' as const } : {};
      const changes =
        target.kind === 'text_item'
          ? await deps.textItems.importIn(trx, workspaceId, userIds, {
              projectId: target.projectId,
              create: planned.create.map((c) => ({
                ...c,
                ...(target.blockId !== undefined && { blockId: target.blockId }),
              })),
              updates: planned.updates,
              ...richText,
            })
          : await deps.components.importIn(trx, workspaceId, userIds, {
              create: planned.create.map((c) => ({
                ...c,
                ...(target.folderId !== undefined && { folderId: target.folderId }),
              })),
              updates: planned.updates,
              ...richText,
            });
      return { changes, result: { dryRun: false, ...planned.report } };
    });
  }

  return { importFile };
}

export type ImportsService = ReturnType<typeof createImportsService>;

/** The parsed columns of the request; a malformed file is a 400 naming the place. */
function readColumns(
  request: ImportRequest,
  variants: readonly VariantRow[],
  variables: readonly Variable[],
  language: string,
): ImportColumn[] {
  const variantOf = (developerId: string | undefined, field: string) => {
    if (developerId === undefined || developerId === 'base') return null;
    const row = variants.find((v) => v.developer_id === developerId);
    if (!row) throw badRequest(`${field}: ${variantNotFoundMessage(developerId)}`);
    return row;
  };
  try {
    return parseColumns(request, language, variables, variantOf);
  } catch (error) {
    if (error instanceof MalformedFile) throw badRequest(`${request.format} file, ${error.message}`);
    throw error;
  }
}

export type { PlannedImport };
