import type { GuideTerm, RawFinding } from './types.js';
import { isLower, isUpper, splitFirst } from './words.js';

/**
 * Wordlist matching by tokens rather than one regex per term: the text is split once into words
 * (runs of letters, marks and digits, so word boundaries hold for any script), single punctuation
 * characters and whitespace, and every term is looked up by its first token. That keeps the cost
 * per text independent of the number of terms.
 *
 * - Whole words: a term matches whole tokens only, so "café" does not match inside "cafés".
 * - Whitespace in a term matches any run of whitespace in the text ("sign in" matches "sign\n in");
 *   no whitespace in a term matches none ("e-mail" does not match "e - mail").
 * - Case: simple lower-casing, the same as a regex `i` flag ("Straße" matches "STRAßE", not
 *   "STRASSE"). Text and terms are compared in Unicode NFC, and ’ counts as '.
 * - At one position the longest term wins; matches do not overlap.
 */
interface Token {
  start: number;
  end: number;
  /** Folded for case-insensitive comparison. */
  key: string;
  /** As written, normalized. */
  exact: string;
  spaceBefore: boolean;
}

interface Pattern {
  term: GuideTerm;
  replaced: string;
  keys: string[];
  exacts: string[];
  spaces: boolean[];
}

export interface Wordlist {
  byFirstKey: Map<string, Pattern[]>;
}

const TOKEN = /[\p{L}\p{M}\p{N}]+|(\s+)|[\s\S]/gu;
const NON_ASCII = /[^ -~\t\n\r]/;

const normalize = (text: string) => (NON_ASCII.test(text) ? text.normalize('NFC').replace(/\u2019/g, "'") : text);
const fold = (exact: string) => {
  const lower = exact.toLowerCase();
  return NON_ASCII.test(lower) ? lower.replace(/\u03c2/g, '\u03c3') : lower;
};

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let spaceBefore = false;
  for (const match of text.matchAll(TOKEN)) {
    if (match[1] !== undefined) {
      spaceBefore = true;
      continue;
    }
    const exact = normalize(match[0]);
    tokens.push({ start: match.index, end: match.index + match[0].length, key: fold(exact), exact, spaceBefore });
    spaceBefore = false;
  }
  return tokens;
}

export function compileWordlist(terms: readonly GuideTerm[]): Wordlist {
  const byFirstKey = new Map<string, Pattern[]>();
  for (const term of terms) {
    for (const replaced of term.replaces) {
      const tokens = tokenize(replaced);
      const first = tokens[0];
      if (!first) continue;
      const pattern: Pattern = {
        term,
        replaced,
        keys: tokens.map((t) => t.key),
        exacts: tokens.map((t) => t.exact),
        spaces: tokens.map((t) => t.spaceBefore),
      };
      const list = byFirstKey.get(first.key) ?? [];
      list.push(pattern);
      byFirstKey.set(first.key, list);
    }
  }
  for (const list of byFirstKey.values()) list.sort((a, b) => b.keys.length - a.keys.length);
  return { byFirstKey };
}

function matchesAt(tokens: readonly Token[], i: number, pattern: Pattern): boolean {
  if (i + pattern.keys.length > tokens.length) return false;
  for (let k = 0; k < pattern.keys.length; k += 1) {
    const token = tokens[i + k] as Token;
    if (token.key !== pattern.keys[k]) return false;
    if (k > 0 && token.spaceBefore !== pattern.spaces[k]) return false;
    if (pattern.term.caseSensitive && token.exact !== pattern.exacts[k]) return false;
  }
  return true;
}

/**
 * The preferred term, re-cased for where it goes: a match that starts with a capital (as at the
 * start of a sentence) capitalizes it, and a lower-case match lowers a capital that is only
 * sentence-style ("Sign in" -> "sign in", but "GitHub" and "Wi-Fi" stay as they are).
 */
export function adaptCase(preferred: string, matched: string): string {
  const [m0] = splitFirst(matched);
  const [p0, rest] = splitFirst(preferred);
  if (isUpper(m0) && isLower(p0)) return p0.toUpperCase() + rest;
  if (isLower(m0) && isUpper(p0) && rest === rest.toLowerCase()) return p0.toLowerCase() + rest;
  return preferred;
}

/** The matches of a wordlist in one text, the first `limit` of them by position. */
export function matchWordlist(
  wordlist: Wordlist,
  text: string,
  tokens: readonly Token[],
  limit = Number.POSITIVE_INFINITY,
): Array<RawFinding & { term: GuideTerm }> {
  const findings: Array<RawFinding & { term: GuideTerm }> = [];
  if (wordlist.byFirstKey.size === 0) return findings;
  for (let i = 0; i < tokens.length && findings.length < limit; i += 1) {
    const candidates = wordlist.byFirstKey.get((tokens[i] as Token).key);
    if (!candidates) continue;
    const pattern = candidates.find((p) => matchesAt(tokens, i, p));
    if (!pattern) continue;
    const last = tokens[i + pattern.keys.length - 1] as Token;
    const start = (tokens[i] as Token).start;
    const matched = text.slice(start, last.end);
    const { term } = pattern;
    const suggestion = term.caseSensitive ? term.preferred : adaptCase(term.preferred, matched);
    i += pattern.keys.length - 1;
    if (suggestion === matched) continue;
    const note = term.note ? ` (${term.note})` : '';
    findings.push({
      start,
      end: last.end,
      message: `Use "${suggestion}" instead of "${matched}"${note}`,
      suggestion,
      term,
    });
  }
  return findings;
}

/**
 * The terms whose patterns occur in the text, as the wordlist matches them (whole words, case as
 * the term says), whatever the case they occur in: the glossary's "found in the text".
 */
export function termsPresent(wordlist: Wordlist, tokens: readonly Token[]): Set<GuideTerm> {
  const present = new Set<GuideTerm>();
  for (let i = 0; i < tokens.length; i += 1) {
    const pattern = wordlist.byFirstKey.get((tokens[i] as Token).key)?.find((p) => matchesAt(tokens, i, p));
    if (!pattern) continue;
    present.add(pattern.term);
    i += pattern.keys.length - 1;
  }
  return present;
}
