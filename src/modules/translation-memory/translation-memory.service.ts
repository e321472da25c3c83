import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import { findMemoryMatches, loadTextsByDeveloperIds, type TextKind, variantNotFoundMessage } from '../texts/index.js';
import type { Variant } from '../variants/variants.types.js';
import type { MemoryQuery, MemoryResponse } from './translation-memory.schemas.js';

export type { MemoryQuery, MemoryResponse };

export interface TranslationMemoryDeps {
  db: Kysely<Database>;
  listVariants: (executor: Executor, workspaceId: number) => Promise<Variant[]>;
  folderDeveloperIds: (executor: Executor, workspaceId: number) => Promise<Map<number, string>>;
  projectDeveloperIds: (executor: Executor, workspaceId: number) => Promise<Map<number, string>>;
  /** Brings the index up to date with every committed write (the search index's worker builds both). */
  indexUpToDate: () => Promise<void>;
}

const sameLocale = (a: string | null, b: string | null) =>
  a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

/** The translation memory: the workspace's own translations of texts like the one being translated. */
export function createTranslationMemoryService(deps: TranslationMemoryDeps) {
  const { db } = deps;

  /** The base text asked about and the text it is (left out of its own matches), if a record. */
  async function sourceOf(workspaceId: number, query: MemoryQuery): Promise<{ source: string; textId: number | null }> {
    const given = (['text', 'textItemId', 'componentId'] as const).filter((field) => query[field] !== undefined);
    if (given.length !== 1) {
      throw badRequest(
        given.length === 0
          ? 'text: one of text, textItemId or componentId is required'
          : `${given[1]}: give only one of text, textItemId or componentId`,
      );
    }
    if (query.text !== undefined) return { source: query.text, textId: null };
    const [kind, developerId, what]: [TextKind, string, string] =
      query.textItemId !== undefined
        ? ['text_item', query.textItemId, 'Text item']
        : ['component', query.componentId as string, 'Component'];
    const [found] = await loadTextsByDeveloperIds(db, workspaceId, kind, [developerId]);
    if (!found) throw notFound(`${what} with developer ID ${developerId} not found`);
    return { source: found.text, textId: found.id };
  }

  return {
    async matches(workspaceId: number, query: MemoryQuery): Promise<MemoryResponse> {
      const variants = await deps.listVariants(db, workspaceId);
      const target = variants.find((v) => v.developerId === query.variantId);
      if (!target) throw badRequest(`variantId: ${variantNotFoundMessage(query.variantId)}`);
      const { source, textId } = await sourceOf(workspaceId, query);
      // The target first: its own values are preferred over those of another variant of its locale.
      const allowed = [target, ...variants.filter((v) => v !== target && sameLocale(v.localeCode, target.localeCode))];
      await deps.indexUpToDate();
      const found = await findMemoryMatches(db, workspaceId, {
        source,
        variantIds: allowed.map((v) => v.id),
        excludeTextId: textId,
        minScore: query.minScore ?? 50,
        limit: query.limit ?? 10,
      });
      const [folders, projects] =
        found.length === 0
          ? [new Map<number, string>(), new Map<number, string>()]
          : await Promise.all([deps.folderDeveloperIds(db, workspaceId), deps.projectDeveloperIds(db, workspaceId)]);
      const variantNames = new Map(variants.map((v) => [v.id, v.developerId]));
      return {
        variantId: target.developerId,
        localeCode: target.localeCode,
        source,
        matches: found.map((m) => ({
          score: m.score,
          exact: m.exact,
          source: m.source,
          text: m.value.text,
          richText: m.value.richText,
          variantId: variantNames.get(m.value.variantId) ?? '',
          status: m.value.status,
          kind: m.kind === 'component' ? ('component' as const) : ('textItem' as const),
          id: m.developerId,
          name: m.kind === 'component' ? m.name : null,
          projectId: m.projectId === null ? null : (projects.get(m.projectId) ?? null),
          folderId: m.folderId === null ? null : (folders.get(m.folderId) ?? null),
        })),
      };
    },
  };
}

export type TranslationMemoryService = ReturnType<typeof createTranslationMemoryService>;
