import RE2 from 're2';
import { requiredLiterals } from './regex-prefilter.js';
import type { RawFinding } from './types.js';

/**
 * Each regex runs on at most this many UTF-16 code units at a time: a long text is searched window
 * by window, which bounds the cost of each search and so of finding the next match. Matches that
 * would cross a window edge are not found, and `^`/`$` see the window's edges (docs/styleguides.md).
 */
export const REGEX_WINDOW = 1000;

export interface RegexCheck {
  regex: RegExp;
  message: string;
  replacement: string | null;
  /** Every match contains one of these (see regex-prefilter.ts); null when nothing is known. */
  literals?: string[] | null;
}

// JavaScript's `\s` (RE2's is ASCII only), as the contents of a character class in RE2's syntax.
const JS_SPACE =
  '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
// JavaScript's `.` without the `s` flag: anything but a line terminator (RE2's excludes `\n` only).
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * A JavaScript pattern in RE2's syntax where the two read the same text differently and the
 * difference is common in UI text: `\s` and `\S` (a no-break space before `:` in French), and `.`.
 */
export function toRe2Source(pattern: string, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      i += 1;
      if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${JS_SPACE}]`;
      else out += c + next;
    } else if (c === '[' && !inClass) {
      inClass = true;
      out += c;
    } else if (c === ']' && inClass) {
      inClass = false;
      out += c;
    } else if (c === '.' && !inClass && !dotAll) out += JS_DOT;
    else out += c;
  }
  return out;
}

/** The pattern compiled for RE2, with the engine's `g` flag; throws what RE2 refuses. */
export function compileLinear(pattern: string, flags: string): RegExp {
  return new RE2(toRe2Source(pattern, flags.includes('s')), `${flags}g`);
}

export function compileRegexCheck(pattern: string, flags: string, message: string, replacement: string | null) {
  return { regex: compileLinear(pattern, flags), message, replacement, literals: requiredLiterals(pattern, flags) };
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

/** Findings of one rule in one text, the first `limit` of them by position. */
export function runRegexCheck(
  check: RegexCheck,
  input: string | PrefilterText,
  limit = Number.POSITIVE_INFINITY,
): RawFinding[] {
  const text = typeof input === 'string' ? input : input.text;
  if (typeof input !== 'string' && ruledOut(check, input)) return NONE;
  // Most texts match most rules nowhere: share one empty answer rather than allocate one each.
  let findings = NONE;
  const { regex, replacement } = check;
  for (let offset = 0; offset < text.length && findings.length < limit; ) {
    let end = Math.min(offset + REGEX_WINDOW, text.length);
    // Never split a surrogate pair between two windows.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1] as string)) end -= 1;
    const window = offset === 0 && end === text.length ? text : text.slice(offset, end);
    regex.lastIndex = 0;
    for (let match = regex.exec(window); match !== null; match = regex.exec(window)) {
      if (match[0] === '') {
        // An empty match is no finding; step past it (a whole code point: RE2 reads code points).
        const point = window.codePointAt(regex.lastIndex) ?? 0;
        regex.lastIndex += point > 0xffff ? 2 : 1;
        continue;
      }
      if (findings === NONE) findings = [];
      const found = match;
      findings.push({
        start: offset + match.index,
        end: offset + match.index + match[0].length,
        message: check.message,
        // Expanded only for the findings that are answered (`$&` repeated can make it long).
        suggestion: replacement === null ? null : () => expandReplacement(replacement, found),
      });
      if (findings.length >= limit) break;
    }
    offset = end;
  }
  return findings;
}
