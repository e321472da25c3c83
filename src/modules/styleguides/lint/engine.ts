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
 * each text's variant. A guide is in effect for a text when it is scoped to the text's variant, or
 * when it is enabled by default and not scoped to another variant (docs/styleguides.md).
 */

interface TextContext {
  text: string;
  words: () => Word[];
  /** The text as the regex prefilter compares it for case-insensitive rules. */
  folded: () => string;
  properNouns: ReadonlySet<string>;
}

type RunCheck = (context: TextContext) => RawFinding[];

interface CompiledGuide {
  data: GuideData;
  rules: Array<{ id: string; sectionId: string; run: RunCheck }>;
  wordlist: Wordlist;
  /** Words of the preferred terms that carry a capital: the case checks leave them alone. */
  properNouns: string[];
}

export interface LintInput {
  text: string;
  variantId: string | null;
  /** The record's own character limit, if any. */
  characterLimit?: number | null;
}

function compileCheck(check: RuleCheck): RunCheck {
  const own = (run: RunCheck): RunCheck =>
    check.message === undefined
      ? run
      : (context) => run(context).map((f) => ({ ...f, message: check.message as string }));
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
        // Checked when written; a pattern a later Node version no longer accepts checks nothing.
        return () => [];
      }
      return (context) => runRegexCheck(compiled, context);
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

const byPosition = (a: Finding, b: Finding) => a.start - b.start || a.end - b.end;

function attributed(
  raw: RawFinding,
  kind: Finding['kind'],
  styleguideId: string | null,
  sectionId: string | null,
  ruleId: string | null,
  termId: string | null,
): Finding {
  const { start, end, message, suggestion } = raw;
  return { kind, styleguideId, sectionId, ruleId, termId, message, start, end, suggestion };
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

  constructor(guides: readonly GuideData[]) {
    this.guides = guides.map(compileGuide);
  }

  private guidesFor(variantId: string | null) {
    let entry = this.inEffect.get(variantId);
    if (!entry) {
      // The rule, taken literally: enabled by default, plus scoped to the text's variant.
      const guides = this.guides.filter(
        ({ data }) => data.enabledByDefault || (data.variantId !== null && data.variantId === variantId),
      );
      entry = { guides, properNouns: new Set(guides.flatMap((g) => g.properNouns)) };
      this.inEffect.set(variantId, entry);
    }
    return entry;
  }

  lint(input: LintInput): Finding[] {
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
    const findings: Finding[] = [];
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
        for (const raw of rule.run(context))
          findings.push(attributed(raw, 'rule', styleguideId, rule.sectionId, rule.id, null));
      }
      for (const found of matchWordlist(guide.wordlist, text, tokens)) {
        findings.push(attributed(found, 'term', styleguideId, found.term.sectionId, null, found.term.id));
      }
    }
    if (input.characterLimit) {
      for (const raw of characterLimit(text, input.characterLimit, 'its')) {
        findings.push(attributed(raw, 'characterLimit', null, null, null, null));
      }
    }
    return findings.length > 1 ? findings.sort(byPosition) : findings;
  }
}
