/**
 * The pure parts of suggestions in the app: the API's shapes, what a pane sends as a suggestion,
 * the open counts of the list, the links to a suggestion. Unit-tested in test/web/suggestions.test.ts.
 */
import type { Fields, FieldValue } from './merge.js';
import { escapeHtml, PLURAL_CATEGORIES } from './model.js';
import { componentUrl, textUrl } from './routes.js';

export type SuggestionStatus = 'open' | 'stale' | 'accepted' | 'rejected' | 'withdrawn' | 'obsolete';

export interface Content {
  text: string;
  richText: string | null;
  plurals: { form: string; text: string; richText: string | null }[] | null;
}

/** One suggestion as `GET /v2/suggestions` lists it. */
export interface Suggestion {
  id: string;
  textItemId: string | null;
  componentId: string | null;
  projectId: string | null;
  variantId: string | null;
  recordDeleted: boolean;
  status: SuggestionStatus;
  author: string;
  note: string | null;
  createdAt: string;
  proposed: Content;
  base: Content & { etag: string; exists: boolean };
  decidedAt: string | null;
  decidedBy: string | null;
  decisionNote: string | null;
}

export interface DiffPart {
  type: 'same' | 'added' | 'removed';
  text: string;
}
export interface WordDiff {
  parts: DiffPart[];
  added: number;
  removed: number;
}
export interface Diffs {
  text: WordDiff;
  plurals: (WordDiff & { form: string })[];
}

/** One suggestion as `GET /v2/suggestions/{id}` answers it: with its diffs and the text now. */
export interface SuggestionDetail extends Suggestion {
  diff: Diffs;
  current: (Content & { etag: string }) | null;
  baseChanged: boolean;
  currentDiff: Diffs | null;
}

const str = (value: FieldValue | undefined): string => (typeof value === 'string' ? value : '');

/**
 * The element of `POST /v2/suggestions` that proposes what a pane's form now reads (`values`)
 * in place of what the server has (`theirs`): its text and/or its whole plural list (an empty
 * list removes the plural forms), as HTML. Null when the wording did not change (a suggestion
 * is only ever of wording: status, notes and the rest are editors' fields).
 */
export function proposalOf(
  values: Fields,
  theirs: Fields,
  target: { kind: 'textItem' | 'component'; developerId: string; variantId: string | null },
  note = '',
): Record<string, unknown> | null {
  const pluralNames = (f: Fields) => Object.keys(f).filter((name) => name.startsWith('plural:'));
  const textChanged = str(values.text) !== str(theirs.text);
  const pluralsChanged =
    values.pluralForms !== theirs.pluralForms ||
    [...new Set([...pluralNames(values), ...pluralNames(theirs)])].some((name) => values[name] !== theirs[name]);
  if (!textChanged && !pluralsChanged) return null;
  const proposal: Record<string, unknown> = {
    [target.kind === 'textItem' ? 'textItemId' : 'componentId']: target.developerId,
    richText: 'html',
  };
  if (target.variantId) proposal.variantId = target.variantId;
  if (textChanged) proposal.text = str(values.text);
  if (pluralsChanged) {
    const first = values.pluralForms;
    if (typeof first === 'string') {
      const others = PLURAL_CATEGORIES.filter((form) => form !== first && typeof values[`plural:${form}`] === 'string');
      proposal.plurals = [
        { form: first, text: str(values.text) },
        ...others.map((form) => ({ form, text: str(values[`plural:${form}`]) })),
      ];
    } else proposal.plurals = [];
  }
  const trimmed = note.trim();
  if (trimmed) proposal.note = trimmed;
  return proposal;
}

/** Pending suggestions per text (text items and components by developer ID): `GET /v2/suggestions/counts`, the list's badges. */
export interface PendingCounts {
  textItems: Record<string, number>;
  components: Record<string, number>;
}

/** Where a suggestion is: its text open with the suggestion focused. */
export function suggestionUrl(s: Pick<Suggestion, 'id' | 'textItemId' | 'componentId' | 'projectId'>): string {
  const query = `suggestion=${encodeURIComponent(s.id)}`;
  if (s.componentId) return `${componentUrl(s.componentId)}?${query}`;
  return `${textUrl(s.projectId ?? '', s.textItemId ?? '')}?${query}`;
}

/**
 * Whether rich text carries formatting the plain diff cannot show (bold, italic, underline,
 * strike): only then are the formatted versions shown beside the diff.
 */
export const hasFormatting = (html: string | null | undefined) => Boolean(html && /<(strong|b|em|i|u|s)\b/i.test(html));

/** A content's text as HTML for a read-only editor: its rich text, else its plain text escaped. */
export const htmlOf = (content: Pick<Content, 'text' | 'richText'>) => content.richText ?? escapeHtml(content.text);

/** A diff's counts in words: "2 words added, 1 removed". */
export function diffSummary(diff: Pick<WordDiff, 'added' | 'removed'>): string {
  const words = (n: number) => `${n} ${n === 1 ? 'word' : 'words'}`;
  const bits: string[] = [];
  if (diff.added) bits.push(`${words(diff.added)} added`);
  if (diff.removed) bits.push(`${bits.length ? diff.removed : words(diff.removed)} removed`);
  return bits.length ? bits.join(', ') : 'no change of words';
}

/** Whether a diff changes anything (a plural list's untouched forms are left out of the view). */
export const changes = (diff: Pick<WordDiff, 'parts'>) => diff.parts.some((p) => p.type !== 'same');
