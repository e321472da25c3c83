import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest } from '../../http/errors.js';
import type { VariantsService } from '../variants/variants.service.js';
import { Linter } from './lint/engine.js';
import type { Finding } from './lint/types.js';
import { indexGuides, toGuideData } from './styleguides.records.js';
import { loadGuides } from './styleguides.repository.js';

/**
 * POST /styleguides/lint: texts given in the body, or stored records selected by the filters of
 * GET /components and GET /textItems, checked against the guides in effect for each text's variant.
 */

/** What the components and text items services offer: their fetch, as JSON bytes. */
export interface RecordLister {
  list(workspaceId: number, revision: number, query: { filter?: string }, maxFilterIds: number): Promise<Buffer>;
}

export interface LintDeps {
  db: Kysely<Database>;
  variants: Pick<VariantsService, 'resolveVariants'>;
  components: RecordLister;
  textItems: RecordLister;
}

export interface LintTextInput {
  text: string;
  variantId?: string | null;
  id?: string;
  characterLimit?: number | null;
}

export interface LintRequest {
  texts?: LintTextInput[];
  filter?: { components?: Record<string, unknown>; textItems?: Record<string, unknown> };
}

export type LintSource = 'text' | 'component' | 'textItem';

export interface LintResult {
  id: string | null;
  source: LintSource;
  variantId: string | null;
  pluralForm: string | null;
  text: string;
  findings: Finding[];
}

interface StoredRecord {
  id: string;
  text: string;
  variantId: string | null;
  pluralForm: string | null;
  characterLimit: number | null;
}

export interface LintCaller {
  workspaceId: number;
  revision: number;
}

export function createLintService(deps: LintDeps) {
  async function storedRecords(caller: LintCaller, source: 'components' | 'textItems', filter: object, maxIds: number) {
    const lister = deps[source];
    try {
      const json = await lister.list(caller.workspaceId, caller.revision, { filter: JSON.stringify(filter) }, maxIds);
      return JSON.parse(json.toString('utf8')) as StoredRecord[];
    } catch (error) {
      // The fetch names its filter `filter`; here it sits one level down.
      if (error instanceof AppError && error.code === 'bad_request') {
        throw badRequest(error.message.replace(/^filter\b/, `filter.${source}`));
      }
      throw error;
    }
  }

  async function checkVariants(workspaceId: number, texts: readonly LintTextInput[]): Promise<void> {
    const named = [...new Set(texts.flatMap((t) => (t.variantId ? [t.variantId] : [])))];
    const found = await deps.variants.resolveVariants(deps.db, workspaceId, named);
    texts.forEach((t, i) => {
      if (t.variantId && !found.has(t.variantId)) {
        throw badRequest(`texts[${i}].variantId: Variant with id ${t.variantId} not found`);
      }
    });
  }

  return async function lint(caller: LintCaller, request: LintRequest, maxFilterIds: number): Promise<LintResult[]> {
    if ((request.texts === undefined) === (request.filter === undefined)) {
      throw badRequest('body must have either texts or filter, not both');
    }
    const { filter, texts } = request;
    if (filter && filter.components === undefined && filter.textItems === undefined) {
      throw badRequest('filter must have components, textItems or both');
    }
    const inputs: Array<{
      id: string | null;
      source: LintSource;
      text: string;
      variantId: string | null;
      pluralForm: string | null;
      characterLimit: number | null;
    }> = [];
    if (texts) {
      await checkVariants(caller.workspaceId, texts);
      for (const t of texts) {
        inputs.push({
          id: t.id ?? null,
          source: 'text',
          text: t.text,
          variantId: t.variantId ?? null,
          pluralForm: null,
          characterLimit: t.characterLimit ?? null,
        });
      }
    }
    for (const [key, source] of [
      ['components', 'component'],
      ['textItems', 'textItem'],
    ] as const) {
      const selection = filter?.[key];
      if (selection === undefined) continue;
      for (const r of await storedRecords(caller, key, selection, maxFilterIds)) {
        inputs.push({
          id: r.id,
          source,
          text: r.text,
          variantId: r.variantId,
          pluralForm: r.pluralForm,
          characterLimit: r.characterLimit,
        });
      }
    }
    const guides = [...indexGuides(await loadGuides(deps.db, caller.workspaceId)).values()].map(toGuideData);
    const linter = new Linter(guides);
    return inputs.map(({ characterLimit, ...input }) => ({
      ...input,
      findings: linter.lint({ text: input.text, variantId: input.variantId, characterLimit }),
    }));
  };
}
