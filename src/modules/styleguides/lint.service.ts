import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Limits } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest } from '../../http/errors.js';
import type { VariantsService } from '../variants/variants.service.js';
import { Linter } from './lint/engine.js';
import { WorkGate } from './lint/gate.js';
import type { Finding } from './lint/types.js';
import type { LintRequest, LintTextInput } from './lint.schemas.js';
import { loadGuides } from './styleguides.load.js';
import { indexGuides, toGuideData } from './styleguides.records.js';

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
  variants: Pick<VariantsService, 'resolveVariants' | 'listVariants'>;
  components: RecordLister;
  textItems: RecordLister;
}

export type { LintRequest, LintTextInput };

export type LintSource = 'text' | 'component' | 'textItem';

export interface LintResult {
  id: string | null;
  source: LintSource;
  variantId: string | null;
  pluralForm: string | null;
  text: string;
  findings: Finding[];
  /** Some findings of this text are not answered: a cap per text or per request was reached. */
  truncated: boolean;
}

interface StoredRecord {
  id: string;
  text: string;
  variantId: string | null;
  pluralForm: string | null;
  characterLimit: number | null;
}

/** The bounds of one lint request (`config.limits`). */
export type LintLimits = Pick<
  Limits,
  | 'filterIds'
  | 'lintChars'
  | 'lintRecords'
  | 'lintFindingsPerText'
  | 'lintFindings'
  | 'lintFindingChars'
  | 'lintConcurrent'
  | 'lintQueue'
>;

/** What a client refused for a full queue is told to wait before trying again, in seconds. */
const RETRY_AFTER_SECONDS = 5;

/** Linting runs in slices of about this many milliseconds, letting other requests in between. */
const SLICE_MS = 20;

const thousands = (n: number) => n.toLocaleString('en-US');

/**
 * The text a request covers is bounded before any of it is linted: past the limit the answer is a
 * 400 naming the limit rather than a partial lint, so a client never takes a partial answer for a
 * whole one (only findings are cut, and say so).
 */
function checkVolume(inputs: readonly { text: string }[], field: string, limits: LintLimits, stored: boolean) {
  if (stored && inputs.length > limits.lintRecords) {
    throw badRequest(
      `${field}: selects ${thousands(inputs.length)} records, more than the ${thousands(limits.lintRecords)} one lint may cover (LIMIT_LINT_RECORDS); narrow the filter`,
    );
  }
  let chars = 0;
  for (const input of inputs) chars += input.text.length;
  if (chars > limits.lintChars) {
    throw badRequest(
      `${field}: ${thousands(chars)} characters of text, more than the ${thousands(limits.lintChars)} one lint may cover (LIMIT_LINT_CHARS)${stored ? '; narrow the filter' : ''}`,
    );
  }
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

  let gate: WorkGate | null = null;

  /**
   * A turn among the lints of this server: at most `lintConcurrent` run at once and `lintQueue`
   * more wait; past that, a 503 with Retry-After (docs/styleguides.md). The route takes its turn
   * before the body is read, so a refused request costs nothing and a waiting one holds no text.
   * Resolves with the release of the place, which the caller calls once the answer is sent.
   */
  function admit(limits: Pick<LintLimits, 'lintConcurrent' | 'lintQueue'>): Promise<() => void> {
    gate ??= new WorkGate(limits.lintConcurrent, limits.lintQueue);
    const turn = gate.enter();
    if (turn === null) {
      throw new AppError(
        'unavailable',
        `lint: ${limits.lintConcurrent + limits.lintQueue} lints are running or waiting in this server (LIMIT_LINT_CONCURRENT, LIMIT_LINT_QUEUE); try again in a few seconds`,
        RETRY_AFTER_SECONDS,
      );
    }
    return turn;
  }

  return Object.assign(lint, { admit });

  /** The answer, as the bytes of its JSON array of `LintResult`. */
  async function lint(caller: LintCaller, request: LintRequest, limits: LintLimits): Promise<Buffer> {
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
      checkVolume(texts, 'texts', limits, false);
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
      for (const r of await storedRecords(caller, key, selection, limits.filterIds)) {
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
    if (filter) checkVolume(inputs, 'filter', limits, true);
    const [loaded, variants] = await Promise.all([
      loadGuides(deps.db, caller.workspaceId, deps.variants),
      deps.variants.listVariants(deps.db, caller.workspaceId),
    ]);
    const guides = [...indexGuides(loaded).values()].map(toGuideData);
    const linter = new Linter(guides, new Map(variants.map((v) => [v.developerId, v.localeCode])));
    const budget = {
      perText: limits.lintFindingsPerText,
      findings: limits.lintFindings,
      chars: limits.lintFindingChars,
    };
    // Each text's result is written out as JSON as soon as it is linted: the answer is held as
    // its bytes (a fifth of the objects' size) and never serialized in one block at the end.
    const parts: Buffer[] = [Buffer.from('[')];
    let sliceStart = performance.now();
    for (const [index, { characterLimit, ...input }] of inputs.entries()) {
      const outcome = linter.lint({ text: input.text, variantId: input.variantId, characterLimit }, budget);
      const result: LintResult = { ...input, findings: outcome.findings, truncated: outcome.truncated };
      parts.push(Buffer.from(index === 0 ? JSON.stringify(result) : `,${JSON.stringify(result)}`));
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToOthers();
        sliceStart = performance.now();
      }
    }
    parts.push(Buffer.from(']'));
    return Buffer.concat(parts);
  }
}
