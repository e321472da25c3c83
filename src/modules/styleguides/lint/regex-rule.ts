import { requiredLiterals } from './regex-prefilter.js';
import type { RawFinding } from './types.js';

/**
 * Each regex runs on at most this many UTF-16 code units at a time: a long text is searched window
 * by window, so even the worst pattern the guard lets through stays cheap. Matches that would
 * cross a window edge are not found, and `^`/`$` see the window's edges (docs/styleguides.md).
 */
export const REGEX_WINDOW = 1000;

export interface RegexCheck {
  regex: RegExp;
  message: string;
  replacement: string | null;
  /** Every match contains one of these (see regex-prefilter.ts); null when nothing is known. */
  literals?: string[] | null;
}

export function compileRegexCheck(pattern: string, flags: string, message: string, replacement: string | null) {
  return { regex: new RegExp(pattern, `${flags}g`), message, replacement, literals: requiredLiterals(pattern, flags) };
}

/** The text as the prefilter compares it, computed at most once per text. */
export interface PrefilterText {
  text: string;
  folded: () => string;
}

function ruledOut(check: RegexCheck, input: PrefilterText): boolean {
  const { literals } = check;
  if (!literals) return false;
  const haystack = check.regex.ignoreCase ? input.folded() : input.text;
  return !literals.some((literal) => haystack.includes(literal));
}

/** `$&`, `$1`..`$99`, `$<name>` and `$$` in the replacement, as String.prototype.replace reads them. */
export function expandReplacement(replacement: string, match: RegExpExecArray): string {
  return replacement.replace(/\$(\$|&|<([^>]*)>|(\d\d?))/g, (all, token: string, name?: string, digits?: string) => {
    if (token === '$') return '$';
    if (token === '&') return match[0];
    if (name !== undefined) return match.groups?.[name] ?? (match.groups ? '' : all);
    const groups = match.length - 1;
    const two = Number(digits);
    if (two >= 1 && two <= groups) return match[two] ?? '';
    const one = Number(digits?.[0]);
    if (one >= 1 && one <= groups) return (match[one] ?? '') + (digits?.slice(1) ?? '');
    return all;
  });
}

const NONE: RawFinding[] = [];

export function runRegexCheck(check: RegexCheck, input: string | PrefilterText): RawFinding[] {
  const text = typeof input === 'string' ? input : input.text;
  if (typeof input !== 'string' && ruledOut(check, input)) return NONE;
  // Most texts match most rules nowhere: share one empty answer rather than allocate one each.
  let findings = NONE;
  const { regex } = check;
  for (let offset = 0; offset < text.length; ) {
    let end = Math.min(offset + REGEX_WINDOW, text.length);
    // Never split a surrogate pair between two windows.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1] as string)) end -= 1;
    const window = offset === 0 && end === text.length ? text : text.slice(offset, end);
    regex.lastIndex = 0;
    for (let match = regex.exec(window); match !== null; match = regex.exec(window)) {
      if (match[0] === '') {
        // An empty match is no finding; step past it (a whole code point in unicode mode).
        const point = window.codePointAt(regex.lastIndex) ?? 0;
        regex.lastIndex += regex.unicode && point > 0xffff ? 2 : 1;
        continue;
      }
      if (findings === NONE) findings = [];
      findings.push({
        start: offset + match.index,
        end: offset + match.index + match[0].length,
        message: check.message,
        suggestion: check.replacement === null ? null : expandReplacement(check.replacement, match),
      });
    }
    offset = end;
  }
  return findings;
}
