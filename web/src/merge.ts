import { diffArrays } from 'diff';

/**
 * Three-way merge of one text's fields after a save was refused because someone else saved
 * first. `base` is what the writer started from, `mine` their draft, `theirs` the server's
 * current version. Pure: table-tested in test/web/merge.test.ts; the rules are in docs/editor.md.
 */

/** A field's value: a string (text as HTML, status, notes, ...), a list (tags), or null (absent). */
export type FieldValue = string | readonly string[] | null;
export type Fields = Record<string, FieldValue>;

export type Outcome =
  /** Nobody changed it. */
  | 'unchanged'
  /** Only the writer changed it: theirs is kept. */
  | 'mine'
  /** Only the other person changed it: their value is taken. */
  | 'theirs'
  /** Both made the same change. */
  | 'same'
  /** Both changed a list (tags): additions and removals of both are combined, never asked. */
  | 'combined'
  /** Both changed it differently: the writer chooses. */
  | 'conflict';

export interface FieldMerge {
  field: string;
  base: FieldValue;
  mine: FieldValue;
  theirs: FieldValue;
  outcome: Outcome;
  /** The merged value; for a conflict, the writer's until they choose. */
  value: FieldValue;
}

export function sameValue(a: FieldValue, b: FieldValue): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** Tags both sides changed: theirs, plus what the writer added, minus what the writer removed. */
export function mergeLists(base: readonly string[], mine: readonly string[], theirs: readonly string[]): string[] {
  const removed = new Set(base.filter((t) => !mine.includes(t)));
  const added = mine.filter((t) => !base.includes(t));
  const merged = theirs.filter((t) => !removed.has(t));
  for (const t of added) if (!merged.includes(t)) merged.push(t);
  return merged;
}

export function mergeField(field: string, base: FieldValue, mine: FieldValue, theirs: FieldValue): FieldMerge {
  const at = { field, base, mine, theirs };
  const mineChanged = !sameValue(base, mine);
  const theirsChanged = !sameValue(base, theirs);
  if (!mineChanged && !theirsChanged) return { ...at, outcome: 'unchanged', value: theirs };
  if (!mineChanged) return { ...at, outcome: 'theirs', value: theirs };
  if (!theirsChanged) return { ...at, outcome: 'mine', value: mine };
  if (sameValue(mine, theirs)) return { ...at, outcome: 'same', value: theirs };
  if (Array.isArray(base) && Array.isArray(mine) && Array.isArray(theirs)) {
    return { ...at, outcome: 'combined', value: mergeLists(base, mine, theirs) };
  }
  return { ...at, outcome: 'conflict', value: mine };
}

/** Every field of the three versions (a field absent from one is null there), in first-seen order. */
export function mergeFields(base: Fields, mine: Fields, theirs: Fields): FieldMerge[] {
  const names = [...new Set([...Object.keys(base), ...Object.keys(mine), ...Object.keys(theirs)])];
  return names.map((name) => mergeField(name, base[name] ?? null, mine[name] ?? null, theirs[name] ?? null));
}

/** The writer's answer for a field both changed: theirs, mine, or a text they edited. */
export type Choice = { take: 'mine' } | { take: 'theirs' } | { take: 'edited'; value: string };

/**
 * The values to save once the writer answered; `unresolved` lists the conflicts still without
 * an answer (nothing is saved while any is left).
 */
export function resolveMerge(
  merges: readonly FieldMerge[],
  choices: Readonly<Record<string, Choice | undefined>>,
): { values: Fields; unresolved: string[] } {
  const values: Fields = {};
  const unresolved: string[] = [];
  for (const m of merges) {
    if (m.outcome !== 'conflict') {
      values[m.field] = m.value;
      continue;
    }
    const choice = choices[m.field];
    if (!choice) {
      unresolved.push(m.field);
      values[m.field] = m.mine;
    } else if (choice.take === 'mine') values[m.field] = m.mine;
    else if (choice.take === 'theirs') values[m.field] = m.theirs;
    else values[m.field] = choice.value;
  }
  return { values, unresolved };
}

/** The fields whose merged value differs from the server's: the only ones a save sends. */
export function fieldsToSend(values: Fields, theirs: Fields): string[] {
  return Object.keys(values).filter((name) => !sameValue(values[name] ?? null, theirs[name] ?? null));
}

/** Words, runs of spaces, markup tags and entities: the units a text merge works on. */
const TOKEN = /<[^>]*>|&[#A-Za-z0-9]+;|\s+|[^\s<&]+|[<&]/g;
const tokens = (text: string) => text.match(TOKEN) ?? [];

interface Hunk {
  /** Base tokens [from, to) replaced by `insert`. */
  from: number;
  to: number;
  insert: string[];
}

function hunksOf(base: string[], changed: string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const part of diffArrays(base, changed)) {
    if (!part.added && !part.removed) {
      if (open) hunks.push(open);
      open = null;
      at += part.count;
      continue;
    }
    open ??= { from: at, to: at, insert: [] };
    if (part.removed) {
      at += part.count;
      open.to = at;
    } else for (const token of part.value) open.insert.push(token);
  }
  if (open) hunks.push(open);
  return hunks;
}

const sameHunk = (a: Hunk, b: Hunk) =>
  a.from === b.from &&
  a.to === b.to &&
  a.insert.length === b.insert.length &&
  a.insert.every((t, i) => t === b.insert[i]);

/** Two edits touch the same words (or insert at the same place): a person has to decide. */
const overlaps = (a: Hunk, b: Hunk) => (a.from < b.to && b.from < a.to) || a.from === b.from || a.to === b.to;

/**
 * Both people's edits of one text applied together when they touch different words; null when
 * they overlap. The writer still reviews the result ("edit the merged text").
 */
export function mergeText(base: string, mine: string, theirs: string): string | null {
  const original = tokens(base);
  const ours = hunksOf(original, tokens(mine));
  const other = hunksOf(original, tokens(theirs));
  const all: Hunk[] = [...ours];
  for (const hunk of other) {
    if (ours.some((h) => sameHunk(h, hunk))) continue;
    if (ours.some((h) => overlaps(h, hunk))) return null;
    all.push(hunk);
  }
  all.sort((a, b) => a.from - b.from);
  const out: string[] = [];
  let at = 0;
  for (const hunk of all) {
    for (let i = at; i < hunk.from; i += 1) out.push(original[i]!);
    for (const token of hunk.insert) out.push(token);
    at = hunk.to;
  }
  for (let i = at; i < original.length; i += 1) out.push(original[i]!);
  return out.join('');
}
