import type { RawFinding } from './types.js';
import { type Word, wordsOf } from './words.js';

/** The built-in checks other than the case checks (see case-checks.ts). Each is a pure function. */

/** Words after which a final period belongs to an abbreviation, not to the sentence. */
const ABBREVIATIONS = new Set(['etc', 'inc', 'ltd', 'co', 'corp', 'jr', 'sr']);

export function noTrailingPeriod(text: string, words: readonly Word[] = wordsOf(text)): RawFinding[] {
  const match = /(?<![.\u2026])\.(?=\s*$)/.exec(text);
  if (!match) return [];
  const last = words.at(-1);
  if (last && last.end === match.index && ABBREVIATIONS.has(last.text.toLowerCase())) return [];
  return [{ start: match.index, end: match.index + 1, message: 'Remove the trailing period', suggestion: '' }];
}

/**
 * A run of exclamation marks becomes a period where it ends a sentence inside the text, and goes
 * away where it ends the text or follows other end punctuation ("Really?!").
 */
export function noExclamationMark(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const match of text.matchAll(/[!\u00a1\uff01]+/g)) {
    const start = match.index;
    const end = start + match[0].length;
    const atEnd = /^[\s"'\u201d\u2019)\]]*$/.test(text.slice(end));
    const afterPunctuation = /[.?\u2026]/.test(text[start - 1] ?? '');
    const inverted = match[0].startsWith('\u00a1');
    findings.push({
      start,
      end,
      message: 'Avoid exclamation marks',
      suggestion: atEnd || afterPunctuation || inverted ? '' : '.',
    });
  }
  return findings;
}

export function noDoubleSpaces(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const match of text.matchAll(/[^\S\r\n]{2,}/g)) {
    findings.push({
      start: match.index,
      end: match.index + match[0].length,
      message: 'Use a single space',
      suggestion: ' ',
    });
  }
  return findings;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/**
 * Characters that can join a neighbour into one grapheme: marks, format characters (ZWJ...), CR
 * (of CR LF), Hangul jamo, the one BMP prepend letter, and everything beyond the BMP (emoji,
 * regional indicators). A text without any is one grapheme per code unit; the segmenter is slow.
 */
const JOINING = /[\p{M}\p{Cf}\r\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0d4e\u{10000}-\u{10ffff}]/u;

/**
 * Length in characters as a reader counts them (grapheme clusters: "é" written as e + accent is
 * one), and the UTF-16 offset where the part over `limit` starts. Null when within the limit.
 */
export function overLimit(text: string, limit: number): { length: number; cut: number } | null {
  // A text is never more graphemes long than code units, so short texts skip the segmenter.
  if (text.length <= limit) return null;
  if (!JOINING.test(text)) return { length: text.length, cut: limit };
  let length = 0;
  let cut = text.length;
  for (const { index } of graphemes.segment(text)) {
    if (length === limit) cut = index;
    length += 1;
  }
  return length > limit ? { length, cut } : null;
}

export function characterLimit(text: string, limit: number, whose: 'the' | 'its' = 'the'): RawFinding[] {
  const over = overLimit(text, limit);
  if (!over) return [];
  return [
    {
      start: over.cut,
      end: text.length,
      message: `Text is ${over.length} characters long, over ${whose} character limit of ${limit}`,
      suggestion: null,
    },
  ];
}
