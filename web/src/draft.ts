import { type Fields, type FieldValue, mergeFields } from './merge.js';
import {
  markupText,
  normalMarkup,
  PLURAL_CATEGORIES,
  type Text,
  usedVariables,
  type Value,
  valueTexts,
} from './model.js';

/**
 * One pane's form (the base text or one variant's value) as the writer edits it, the fields a
 * merge compares, and the PATCH update that saves only what differs. Pure: test/web/draft.test.ts.
 */

export interface RichValue {
  html: string;
  plain: string;
}

export interface Draft {
  text: RichValue;
  /** The first plural form (its text is `text`); null without plural forms. */
  firstForm: string | null;
  /** The other plural forms. */
  plurals: Record<string, RichValue>;
  status: string;
  assignee: string;
  notes: string;
  characterLimit: string;
  tags: string;
}

/** A form's draft from a stored value; a variant's missing value is an empty draft (never the base text). */
export function draftOf(value: Value | null, tags: readonly string[], defaultStatus: string): Draft {
  const [first, ...others] = value?.plurals ?? [];
  return {
    text: { html: value?.richText ?? '', plain: value?.text ?? '' },
    firstForm: first?.form ?? null,
    plurals: Object.fromEntries(others.map((p) => [p.form, { html: p.richText, plain: p.text }])),
    status: value?.status ?? defaultStatus,
    assignee: value?.assignee ?? '',
    notes: value?.notes ?? '',
    characterLimit: value?.characterLimit ? String(value.characterLimit) : '',
    tags: tags.join(', '),
  };
}

export const tagList = (tags: string) =>
  tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** The fields a merge compares (tags only for the base text). */
export function fieldsOf(draft: Draft, withTags: boolean): Fields {
  const fields: Fields = {
    text: normalMarkup(draft.text.html),
    pluralForms: draft.firstForm,
  };
  for (const form of PLURAL_CATEGORIES) {
    const value = draft.plurals[form];
    if (draft.firstForm !== null && value && form !== draft.firstForm)
      fields[`plural:${form}`] = normalMarkup(value.html);
  }
  fields.status = draft.status;
  fields.assignee = draft.assignee || null;
  fields.notes = draft.notes;
  const limit = Number.parseInt(draft.characterLimit, 10);
  fields.characterLimit = limit > 0 ? String(limit) : null;
  if (withTags) fields.tags = tagList(draft.tags);
  return fields;
}

const str = (value: FieldValue | undefined): string => (typeof value === 'string' ? value : '');

/** The texts (plain) of merged fields: the display text and each plural form. */
function textsOf(values: Fields): string[] {
  return Object.entries(values)
    .filter(([name]) => name === 'text' || name.startsWith('plural:'))
    .map(([, value]) => markupText(str(value)));
}

export interface SaveContext {
  developerId: string;
  variantId: string | null;
  /** The text as the server has it now (for the other values' variables). */
  current: Text;
  /** The workspace's variable names. */
  variables: ReadonlySet<string>;
  /** An instance's text, plural forms and variables are its component's: never sent. */
  instance: boolean;
}

/**
 * The update that turns the server's `theirs` into `values`, sending only the fields in `send`.
 * Any change of the text or its plural forms also sends the whole plural list (the API takes the
 * list whole) and the text's variables: every placeholder of a workspace variable in the base
 * text, its plural forms and every variant's value, this one as it will be after the save.
 */
export function updateOf(values: Fields, send: readonly string[], context: SaveContext): Record<string, unknown> {
  const update: Record<string, unknown> = { developerId: context.developerId };
  const content = send.some((f) => f === 'text' || f === 'pluralForms' || f.startsWith('plural:'));
  if (content && !context.instance) {
    update.text = str(values.text);
    const first = values.pluralForms;
    if (typeof first === 'string') {
      const others = PLURAL_CATEGORIES.filter((form) => form !== first && typeof values[`plural:${form}`] === 'string');
      update.plurals = [
        { form: first, text: str(values.text) },
        ...others.map((form) => ({ form, text: str(values[`plural:${form}`]) })),
      ];
    } else update.plurals = [];
    const { current, variantId } = context;
    const others = [
      ...(variantId === null ? [] : valueTexts(current.base)),
      ...[...current.variants].filter(([id]) => id !== variantId).flatMap(([, value]) => valueTexts(value)),
    ];
    update.variables = usedVariables([...textsOf(values), ...others], context.variables);
  }
  if (send.includes('status')) update.status = values.status;
  if (send.includes('assignee')) update.assignee = values.assignee ?? null;
  if (send.includes('notes')) update.notes = str(values.notes);
  if (send.includes('characterLimit')) {
    update.characterLimit = values.characterLimit === null ? null : Number(values.characterLimit);
  }
  if (send.includes('tags') && context.variantId === null) update.tags = values.tags ?? [];
  return update;
}

/** A draft showing merged values (after a conflict is resolved and saved). */
export function draftFromFields(values: Fields, plains: (html: string) => string = markupText): Draft {
  const rich = (html: string) => ({ html, plain: plains(html) });
  const plurals: Record<string, RichValue> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name.startsWith('plural:') && typeof value === 'string') plurals[name.slice('plural:'.length)] = rich(value);
  }
  return {
    text: rich(str(values.text)),
    firstForm: typeof values.pluralForms === 'string' ? values.pluralForms : null,
    plurals,
    status: str(values.status),
    assignee: str(values.assignee),
    notes: str(values.notes),
    characterLimit: str(values.characterLimit),
    tags: Array.isArray(values.tags) ? values.tags.join(', ') : '',
  };
}

/**
 * Another person's save arrived (the live stream) while this pane has unsaved edits: the fields
 * only they changed take their value, the writer's own edits stay as typed, and the pane starts
 * from their version (`baseline`, with their ETag), so a save sends only the writer's fields and
 * keeps theirs. A field both changed differently is left for the save's 412 and the conflict
 * panel: null then, and the pane stays as it was. Tags both changed are combined.
 */
export function rebaseDraft(
  draft: Draft,
  base: Fields,
  theirs: Draft,
  withTags: boolean,
): { draft: Draft; baseline: Fields } | null {
  const theirFields = fieldsOf(theirs, withTags);
  const merges = mergeFields(base, fieldsOf(draft, withTags), theirFields);
  if (merges.some((m) => m.outcome === 'conflict')) return null;
  const next: Draft = { ...draft, plurals: { ...draft.plurals } };
  for (const m of merges) {
    if (m.outcome !== 'theirs' && m.outcome !== 'combined') continue;
    if (m.field === 'text') next.text = theirs.text;
    else if (m.field === 'pluralForms') next.firstForm = theirs.firstForm;
    else if (m.field.startsWith('plural:')) {
      const form = m.field.slice('plural:'.length);
      const value = theirs.plurals[form];
      if (value) next.plurals[form] = value;
      else delete next.plurals[form];
    } else if (m.field === 'status') next.status = theirs.status;
    else if (m.field === 'assignee') next.assignee = theirs.assignee;
    else if (m.field === 'notes') next.notes = theirs.notes;
    else if (m.field === 'characterLimit') next.characterLimit = theirs.characterLimit;
    else if (m.field === 'tags') next.tags = Array.isArray(m.value) ? m.value.join(', ') : theirs.tags;
  }
  return { draft: next, baseline: theirFields };
}
