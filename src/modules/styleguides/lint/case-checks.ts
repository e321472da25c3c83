import type { RawFinding } from './types.js';
import { caseShape, type Word, withFirst } from './words.js';

/**
 * Sentence case and title case, word by word: each finding covers one word and suggests it
 * re-cased. Words a case rule cannot judge are left alone (see `caseShape`), and so are the words
 * of the preferred terms of the wordlists in effect, which are how a team spells its proper nouns.
 */

/** Where a word stands, judged from the characters between it and the previous word. */
type Position = 'start' | 'afterColon' | 'quoted' | 'middle';

const SENTENCE_END = /[.!?\u2026\n\u3002\uff01\uff1f]/;
const OPENING_QUOTE = /["'\u201c\u2018\u00ab\u201e]\s*$/;
/** A period after these does not end a sentence. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'approx', 'incl', 'cf', 'fig', 'mr', 'mrs', 'ms', 'dr']);

function positions(text: string, words: readonly Word[]): Position[] {
  return words.map((word, k) => {
    if (k === 0) return 'start';
    const previous = words[k - 1] as Word;
    const gap = text.slice(previous.end, word.start);
    if (SENTENCE_END.test(gap)) {
      const abbreviation = gap.startsWith('.') && !gap.includes('\n') && isAbbreviation(text, words, k - 1);
      return abbreviation ? 'middle' : 'start';
    }
    if (gap.includes(':')) return 'afterColon';
    if (OPENING_QUOTE.test(gap)) return 'quoted';
    return 'middle';
  });
}

function isAbbreviation(text: string, words: readonly Word[], k: number): boolean {
  const word = words[k] as Word;
  // "e.g." reads as the words "e" and "g": join them back.
  const joined = k > 0 && text[word.start - 1] === '.' ? `${(words[k - 1] as Word).text}.${word.text}` : word.text;
  return (
    word.text.length === 1 || ABBREVIATIONS.has(joined.toLowerCase()) || ABBREVIATIONS.has(word.text.toLowerCase())
  );
}

function finding(word: Word, upper: boolean, style: string): RawFinding {
  const suggestion = withFirst(word.text, upper);
  return {
    start: word.start,
    end: word.end,
    message: `${style}: write "${suggestion}" instead of "${word.text}"`,
    suggestion,
  };
}

export function sentenceCase(text: string, words: readonly Word[], properNouns: ReadonlySet<string>): RawFinding[] {
  const where = positions(text, words);
  const findings: RawFinding[] = [];
  words.forEach((word, k) => {
    if (properNouns.has(word.text)) return;
    const shape = caseShape(word.text);
    if (where[k] === 'start' && shape === 'lower') findings.push(finding(word, true, 'Sentence case'));
    if (where[k] === 'middle' && shape === 'capitalized') findings.push(finding(word, false, 'Sentence case'));
  });
  return findings;
}

/** Short words that title case leaves in lower case inside a title. */
const MINOR_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'but',
  'by',
  'for',
  'in',
  'nor',
  'of',
  'on',
  'or',
  'per',
  'the',
  'to',
  'via',
  'vs',
]);
/** Minor words that are flagged when capitalized; "in", "on" and "by" are often particles ("Log In"). */
const NEVER_CAPITALIZED = new Set([...MINOR_WORDS].filter((w) => !['in', 'on', 'by'].includes(w)));

export function titleCase(text: string, words: readonly Word[], properNouns: ReadonlySet<string>): RawFinding[] {
  const where = positions(text, words);
  const findings: RawFinding[] = [];
  words.forEach((word, k) => {
    if (properNouns.has(word.text)) return;
    const shape = caseShape(word.text);
    const lower = word.text.toLowerCase();
    // The first and last word of a title, and of each part after a colon or sentence end, are capitalized.
    const edge =
      where[k] === 'start' || where[k] === 'afterColon' || k === words.length - 1 || where[k + 1] === 'start';
    if (shape === 'lower' && (edge || !MINOR_WORDS.has(lower))) findings.push(finding(word, true, 'Title case'));
    if (shape === 'capitalized' && !edge && NEVER_CAPITALIZED.has(lower)) {
      findings.push(finding(word, false, 'Title case'));
    }
  });
  return findings;
}
