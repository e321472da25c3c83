import type { Fields, FieldValue } from './merge.js';
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
