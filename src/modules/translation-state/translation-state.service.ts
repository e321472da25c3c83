import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { type FoldersService, folderNotFound, ROOT_FOLDER_ID } from '../folders/folders.service.js';
import { type ProjectsService, projectNotFound } from '../projects/projects.service.js';
import {
  type ParsedFilter,
  type TextKind,
  type TextSelection,
  type TextsReader,
  translationStateOf,
} from '../texts/index.js';
import type { VariantsService } from '../variants/variants.service.js';
import { countProjectStates } from './translation-state.repository.js';
import type { TranslationProgressQuery } from './translation-state.schemas.js';

/**
 * How far each variant's translation has come (`GET /v2/translationProgress`): of the texts of a
 * project, a folder of the library, or the whole workspace, how many each variant lacks, has out
 * of date and has up to date (docs/translation-state.md). Counted from the texts core's reader,
 * whose read of a revision is kept, so a figure asked again after no write costs no query.
 */

export interface TranslationProgress {
  variantId: string;
  total: number;
  missing: number;
  outdated: number;
  upToDate: number;
}

export interface TranslationStateDeps {
  db: Kysely<Database>;
  texts: Pick<TextsReader, 'select'>;
  projects: Pick<ProjectsService, 'listProjectRefs'>;
  folders: Pick<FoldersService, 'loadFolderTree'>;
  variants: Pick<VariantsService, 'listVariants'>;
}

/** The counts of each variant (row id, developer ID) over the texts a selection keeps. */
export function countStates(
  variants: readonly { id: number; developerId: string }[],
  selections: readonly TextSelection[],
): TranslationProgress[] {
  const counts = variants.map((v) => ({ variantId: v.developerId, total: 0, missing: 0, outdated: 0, upToDate: 0 }));
  for (const { entities, select } of selections) {
    for (const entity of entities) {
      if (!select(entity)) continue;
      const values = new Map(entity.variants.map((value) => [value.variantId, value]));
      variants.forEach((variant, index) => {
        const count = counts[index] as TranslationProgress;
        count.total += 1;
        count[translationStateOf(entity, values.get(variant.id))] += 1;
      });
    }
  }
  return counts;
}

export function createTranslationStateService(deps: TranslationStateDeps) {
  /** The reads the query names: kind and filter of each (a project's items, a folder's components, or both kinds whole). */
  async function scopes(
    workspaceId: number,
    query: TranslationProgressQuery,
  ): Promise<{ kind: TextKind; filter: ParsedFilter }[]> {
    if (query.projectId !== undefined && query.folderId !== undefined) {
      throw badRequest('folderId: give projectId or folderId, not both');
    }
    if (query.projectId !== undefined) {
      const id = query.projectId;
      const container = (await deps.projects.listProjectRefs(deps.db, workspaceId)).find((c) => c.developerId === id);
      if (!container) throw badRequest(`projectId: ${projectNotFound(id)}`);
      const filter = container.kind === 'base' ? { bases: [id] } : { projects: [id] };
      return [{ kind: 'text_item', filter }];
    }
    if (query.folderId !== undefined && query.folderId !== ROOT_FOLDER_ID) {
      const id = query.folderId;
      const tree = await deps.folders.loadFolderTree(deps.db, workspaceId);
      if (!tree.byDeveloperId(id)) throw badRequest(`folderId: ${folderNotFound(id)}`);
      return [{ kind: 'component', filter: { folders: [{ id, excludeNestedFolders: false }] } }];
    }
    if (query.folderId === ROOT_FOLDER_ID) return [{ kind: 'component', filter: {} }];
    // The whole workspace: every component, and the items of every project and base.
    const containers = await deps.projects.listProjectRefs(deps.db, workspaceId);
    const projects = containers.filter((c) => c.kind === 'project').map((c) => c.developerId);
    const bases = containers.filter((c) => c.kind === 'base').map((c) => c.developerId);
    const items = containers.length === 0 ? [] : [{ kind: 'text_item' as const, filter: { projects, bases } }];
    return [{ kind: 'component', filter: {} }, ...items];
  }

  return {
    /**
     * The texts of a project, a folder or the workspace that `variantRowId` lacks (and, with
     * `includeOutdated`, has out of date), as the figure above counts them; linked instances are
     * left out (they show their component's value: the component is what is translated).
     */
    async textsToTranslate(
      workspaceId: number,
      revision: number,
      query: TranslationProgressQuery & { variantRowId: number; includeOutdated: boolean },
    ): Promise<{ id: number; kind: TextKind }[]> {
      const reads = await scopes(workspaceId, query);
      const selections = (await Promise.all(
        reads.map((read) => deps.texts.select(workspaceId, revision, { ...read, translationState: true })),
      )) as TextSelection[];
      const out: { id: number; kind: TextKind }[] = [];
      for (const { entities, select } of selections) {
        for (const entity of entities) {
          if (!select(entity) || (entity.kind === 'text_item' && entity.componentId !== null)) continue;
          const state = translationStateOf(
            entity,
            entity.variants.find((value) => value.variantId === query.variantRowId),
          );
          if (state === 'missing' || (state === 'outdated' && query.includeOutdated)) {
            out.push({ id: entity.id, kind: entity.kind });
          }
        }
      }
      return out;
    },

    async progress(workspaceId: number, revision: number, query: TranslationProgressQuery) {
      if (query.projectId !== undefined && query.folderId === undefined) {
        // A project's figure (what the app asks after every write it sees): counted in SQL.
        const id = query.projectId;
        const container = (await deps.projects.listProjectRefs(deps.db, workspaceId)).find((c) => c.developerId === id);
        if (!container) throw badRequest(`projectId: ${projectNotFound(id)}`);
        const [variantRows, counted] = await Promise.all([
          deps.variants.listVariants(deps.db, workspaceId),
          countProjectStates(deps.db, workspaceId, container.id),
        ]);
        const byVariant = new Map(counted.map((c) => [c.variantId, c]));
        return variantRows.map((v): TranslationProgress => {
          const c = byVariant.get(v.id) ?? { total: 0, missing: 0, outdated: 0 };
          return {
            variantId: v.developerId,
            total: c.total,
            missing: c.missing,
            outdated: c.outdated,
            upToDate: c.total - c.missing - c.outdated,
          };
        });
      }
      const [reads, variantRows] = await Promise.all([
        scopes(workspaceId, query),
        deps.variants.listVariants(deps.db, workspaceId),
      ]);
      const selections = await Promise.all(
        reads.map((read) => deps.texts.select(workspaceId, revision, { ...read, translationState: true })),
      );
      const variants = variantRows.map((v) => ({ id: v.id, developerId: v.developerId }));
      return countStates(variants, selections as TextSelection[]);
    },
  };
}

export type TranslationStateService = ReturnType<typeof createTranslationStateService>;
