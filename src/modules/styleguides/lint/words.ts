/**
 * Words and letter case, Unicode-aware: a word is a run of letters, combining marks and digits
 * (an apostrophe inside a word keeps it whole: "don't"), so "Straße" and "café" are single words.
 */
export interface Word {
  text: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*/gu;

export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const match of text.matchAll(WORD)) {
    words.push({ text: match[0], start: match.index, end: match.index + match[0].length });
  }
  return words;
}

/** The first code point and the rest. */
export function splitFirst(text: string): [string, string] {
  const first = String.fromCodePoint(text.codePointAt(0) ?? 0);
  return [first, text.slice(first.length)];
}

export const isUpper = (ch: string) => ch !== ch.toLowerCase() && ch === ch.toUpperCase();
export const isLower = (ch: string) => ch !== ch.toUpperCase() && ch === ch.toLowerCase();
const hasUpper = (text: string) => text !== text.toLowerCase();
const hasLower = (text: string) => text !== text.toUpperCase();

/**
 * `capitalized`: "Save"; `lower`: "save"; `other`: everything a case rule should leave alone:
 * acronyms ("API"), inner capitals ("iPhone", "GitHub"), "I" and "I'm", digits and caseless scripts.
 */
export function caseShape(word: string): 'capitalized' | 'lower' | 'other' {
  const [first, rest] = splitFirst(word);
  if (isUpper(first) && !hasUpper(rest) && hasLower(rest) && !/^['\u2019]/.test(rest)) return 'capitalized';
  if (isLower(first) && !hasUpper(rest)) return 'lower';
  return 'other';
}

export function withFirst(word: string, upper: boolean): string {
  const [first, rest] = splitFirst(word);
  return (upper ? first.toUpperCase() : first.toLowerCase()) + rest;
}
