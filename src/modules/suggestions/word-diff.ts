/**
 * A word diff of two plain texts, for a suggestion's review (docs/suggestions.md): jsdiff's
 * `diffWordsWithSpace`, which compares words and the runs of white space between them, so the
 * parts joined give back either text exactly. A diff longer than `MAX_EDITS` tokens (two texts
 * with little in common) is shown as the old text removed whole and the new one added whole,
 * which is still a correct diff, instead of letting jsdiff search on.
 */
import { diffWordsWithSpace } from 'diff';

export interface DiffPart {
  type: 'same' | 'added' | 'removed';
  text: string;
}

export interface WordDiff {
  parts: DiffPart[];
  /** Words (runs without white space) added and removed. */
  added: number;
  removed: number;
}

const MAX_EDITS = 2_000;

const wordsIn = (text: string): number => text.match(/\S+/g)?.length ?? 0;

export function wordDiff(before: string, after: string): WordDiff {
  if (before === after) return { parts: before ? [{ type: 'same', text: before }] : [], added: 0, removed: 0 };
  const changes = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDITS });
  const parts: DiffPart[] = changes
    ? changes.map((c) => ({ type: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }))
    : [
        { type: 'removed', text: before },
        { type: 'added', text: after },
      ];
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    if (part.type === 'added') added += wordsIn(part.text);
    if (part.type === 'removed') removed += wordsIn(part.text);
  }
  return { parts: parts.filter((p) => p.text !== ''), added, removed };
}
