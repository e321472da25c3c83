import { findPlaceholders, type Placeholder } from '../../../text/placeholders.js';
import { sentenceCase, titleCase } from './case-checks.js';
import { characterLimit, noDoubleSpaces, noExclamationMark, noTrailingPeriod } from './checks.js';
import { foldForPrefilter } from './regex-prefilter.js';
import { compileRegexCheck, runRegexCheck } from './regex-rule.js';
import type { Finding, GuideData, RawFinding, RuleCheck } from './types.js';
import { compileWordlist, matchWordlist, tokenize, type Wordlist } from './wordlist.js';
import { type Word, wordsOf } from './words.js';

/**
 * Compiles style guides once per lint request and checks texts against the guides in effect for
 * each text's variant. A guide is in effect for a text when it is enabled by default, or scoped to
 * the text's variant or to another variant of the same locale (docs/styleguides.md).
 */

/** The locale code of each variant, by developer ID: a scope covers every variant of its locale. */
export type VariantLocales = ReadonlyMap<string, string | null>;

/** Whether a guide scoped to `scope` is in effect for a text of `variantId`. */
export function scopeCovers(scope: string | null, variantId: string | null, locales: VariantLocales): boolean {
  if (scope === null || variantId === null) return false;
  if (scope === variantId) return true;
  const [a, b] = [locales.get(scope), locales.get(variantId)];
  return a != null && b != null && a.toLowerCase() === b.toLowerCase();
}

interface TextContext {
  text: string;
  words: () => Word[];
  /** The text as the regex prefilter compares it for case-insensitive rules. */
  folded: () => string;
  properNouns: ReadonlySet<string>;
}

/** A rule's findings in one text, at most `limit` of them (the first by position). */
type RunCheck = (context: TextContext, limit: number) => RawFinding[];

interface CompiledGuide {
  data: GuideData;
  rules: Array<{ id: string; sectionId: string; run: RunCheck }>;
  wordlist: Wordlist;
  /** Words of the preferred terms that carry a capital: the case checks leave them alone. */
  properNouns: string[];
}

/**
 * What a lint request may still answer: findings per text, and findings and characters (of
 * messages and suggestions) over the whole request. `lint` spends from it.
 */
export interface LintBudget {
  readonly perText: number;
  findings: number;
  chars: number;
}

export interface LintOutcome {
  findings: Finding[];
  /** Some findings of the text are not answered (a cap was reached). */
  truncated: boolean;
}

export interface LintInput {
  text: string;
  variantId: string | null;
  /** The record's own character limit, if any. */
  characterLimit?: number | null;
}

/** A built-in check finds at most one finding per character of its text; the first `limit` are kept. */
const capped =
  (run: (context: TextContext) => RawFinding[]): RunCheck =>
  (context, limit) => {
    const all = run(context);
    return all.length > limit ? all.slice(0, limit) : all;
  };

function compileCheck(check: RuleCheck): RunCheck {
  const own = (run: (context: TextContext) => RawFinding[]): RunCheck =>
    capped(
      check.message === undefined
        ? run
        : (context) => run(context).map((f) => ({ ...f, message: check.message as string })),
    );
  switch (check.type) {
    case 'sentence_case':
      return own(({ text, words, properNouns }) => sentenceCase(text, words(), properNouns));
    case 'title_case':
      return own(({ text, words, properNouns }) => titleCase(text, words(), properNouns));
    case 'no_trailing_period':
      return own(({ text, words }) => noTrailingPeriod(text, words()));
    case 'no_exclamation_mark':
      return own(({ text }) => noExclamationMark(text));
    case 'no_double_spaces':
      return own(({ text }) => noDoubleSpaces(text));
    case 'character_limit':
      return own(({ text }) => characterLimit(text, check.limit ?? Number.POSITIVE_INFINITY));
    case 'regex': {
      let compiled: ReturnType<typeof compileRegexCheck>;
      try {
        compiled = compileRegexCheck(
          check.pattern ?? '',
          check.flags ?? '',
          check.message ?? '',
          check.replacement ?? null,
        );
      } catch {
        // Checked when written. A rule stored before regexes ran on RE2 may use what RE2 lacks
        // (lookaround, `[^]`): it checks nothing until it is rewritten.
        return () => [];
      }
      return (context, limit) => runRegexCheck(compiled, context, limit);
    }
  }
}

function compileGuide(data: GuideData): CompiledGuide {
  const rules = data.rules.flatMap((rule) =>
    rule.check ? [{ id: rule.id, sectionId: rule.sectionId, run: compileCheck(rule.check) }] : [],
  );
  const properNouns = data.terms.flatMap((term) =>
    wordsOf(term.preferred)
      .map((w) => w.text)
      .filter((w) => w !== w.toLowerCase()),
  );
  return { data, rules, wordlist: compileWordlist(data.terms), properNouns };
}

/** A raw finding with whose it is, before the cut. */
interface Found {
  raw: RawFinding;
  kind: Finding['kind'];
  styleguideId: string | null;
  sectionId: string | null;
  ruleId: string | null;
  termId: string | null;
}

const byPosition = (a: Found, b: Found) => a.raw.start - b.raw.start || a.raw.end - b.raw.end;

function attributed(found: Found): Finding {
  const { kind, styleguideId, sectionId, ruleId, termId } = found;
  const { start, end, message, suggestion } = found.raw;
  const text = typeof suggestion === 'function' ? suggestion() : suggestion;
  return { kind, styleguideId, sectionId, ruleId, termId, message, start, end, suggestion: text };
}

/**
 * A `{{variable}}` placeholder is not prose: the words and tokens inside one give way to a single
 * stand-in that no case rule judges (it starts with `{`) and no term matches, while it still
 * separates the words around it ("{{count}} files" does not start with "files").
 */
function maskPlaceholders<T extends { start: number; end: number }>(
  items: T[],
  placeholders: readonly Placeholder[],
  standIn: (p: Placeholder) => T,
): T[] {
  if (placeholders.length === 0) return items;
  const out: T[] = [];
  let k = 0;
  for (const item of items) {
    while (k < placeholders.length && (placeholders[k] as Placeholder).end <= item.start) {
      out.push(standIn(placeholders[k] as Placeholder));
      k += 1;
    }
    const p = placeholders[k];
    if (!p || item.end <= p.start) out.push(item);
  }
  for (; k < placeholders.length; k += 1) out.push(standIn(placeholders[k] as Placeholder));
  return out;
}

export class Linter {
  private readonly guides: CompiledGuide[];
  private readonly inEffect = new Map<string | null, { guides: CompiledGuide[]; properNouns: Set<string> }>();

  constructor(
    guides: readonly GuideData[],
    private readonly locales: VariantLocales = new Map(),
  ) {
    this.guides = guides.map(compileGuide);
  }

  private guidesFor(variantId: string | null) {
    let entry = this.inEffect.get(variantId);
    if (!entry) {
      // Enabled by default, plus scoped to the text's variant or another of its locale.
      const guides = this.guides.filter(
        ({ data }) => data.enabledByDefault || scopeCovers(data.variantId, variantId, this.locales),
      );
      entry = { guides, properNouns: new Set(guides.flatMap((g) => g.properNouns)) };
      this.inEffect.set(variantId, entry);
    }
    return entry;
  }

  /**
   * The findings of one text, sorted by position, within the budget. Each rule and wordlist yields
   * at most one more than the text may answer, so the first findings by position are exact and a
   * rule that matches everywhere costs no more than one that matches the cap.
   */
  lint(input: LintInput, budget: LintBudget): LintOutcome {
    const limit = Math.min(budget.perText, budget.findings);
    if (limit <= 0 || budget.chars <= 0) return { findings: [], truncated: true };
    const ask = limit + 1;
    const { text } = input;
    const { guides, properNouns } = this.guidesFor(input.variantId);
    const placeholders = text.includes('{{') ? findPlaceholders(text) : [];
    let words: Word[] | undefined;
    const allWords = () =>
      maskPlaceholders(wordsOf(text), placeholders, (p) => ({ ...p, text: text.slice(p.start, p.end) }));
    let folded: string | undefined;
    const context: TextContext = {
      text,
      words: () => (words ??= allWords()),
      folded: () => (folded ??= foldForPrefilter(text)),
      properNouns,
    };
    const found: Found[] = [];
    const tokens = guides.some((g) => g.wordlist.byFirstKey.size > 0)
      ? maskPlaceholders(tokenize(text), placeholders, (p) => ({
          ...p,
          key: '{{}}',
          exact: '{{}}',
          spaceBefore: false,
        }))
      : [];
    for (const guide of guides) {
      const styleguideId = guide.data.id;
      for (const rule of guide.rules) {
        for (const raw of rule.run(context, ask)) {
          found.push({ raw, kind: 'rule', styleguideId, sectionId: rule.sectionId, ruleId: rule.id, termId: null });
        }
      }
      for (const raw of matchWordlist(guide.wordlist, text, tokens, ask)) {
        found.push({
          raw,
          kind: 'term',
          styleguideId,
          sectionId: raw.term.sectionId,
          ruleId: null,
          termId: raw.term.id,
        });
      }
    }
    if (input.characterLimit) {
      for (const raw of characterLimit(text, input.characterLimit, 'its')) {
        found.push({ raw, kind: 'characterLimit', styleguideId: null, sectionId: null, ruleId: null, termId: null });
      }
    }
    if (found.length > 1) found.sort(byPosition);
    let truncated = found.length > limit;
    const findings: Finding[] = [];
    for (const entry of found.slice(0, limit)) {
      const finding = attributed(entry);
      const chars = finding.message.length + (finding.suggestion?.length ?? 0);
      if (chars > budget.chars) {
        truncated = true;
        break;
      }
      budget.chars -= chars;
      findings.push(finding);
    }
    budget.findings -= findings.length;
    return { findings, truncated };
  }
}
