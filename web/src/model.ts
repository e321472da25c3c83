/**
 * The API's records (one per base text, variant value and plural form) grouped back into the
 * texts a writer edits. Pure functions: unit-tested in test/web/model.test.ts.
 */

export interface ApiRecord {
  id: string;
  text: string;
  richText?: string;
  notes: string;
  characterLimit: number | null;
  tags: string[];
  integrated: boolean;
  variableIds: string[];
  variantId: string | null;
  pluralForm: string | null;
  status: string;
  assignee: string | null;
  etag?: string;
  name?: string;
  folderId?: string | null;
  projectId?: string;
  blockName?: string | null;
  componentId?: string | null;
  /** Base records read with `withTranslationState=true`: the state of each variant's value. */
  translationStates?: Record<string, TranslationState>;
  /** Variant records read with `withTranslationState=true`. */
  translationState?: TranslationState;
}

/** Whether a variant's value follows the base text: none yet, written before the base last changed, or current. */
export type TranslationState = 'missing' | 'outdated' | 'upToDate';

export interface Value {
  text: string;
  richText: string;
  plurals: { form: string; text: string; richText: string }[];
  notes: string;
  characterLimit: number | null;
  status: string;
  assignee: string | null;
  /** A variant value's state, when the server said it. */
  translationState?: TranslationState;
}

export interface Text {
  developerId: string;
  kind: 'textItem' | 'component';
  name: string | null;
  blockName: string | null;
  folderId: string | null;
  projectId?: string | null;
  componentId: string | null;
  tags: string[];
  etag: string | null;
  base: Value;
  variants: Map<string, Value>;
  /** Per variant id, when the server said it (read with `withTranslationState=true`). */
  translationStates?: Record<string, TranslationState>;
}

const emptyValue = (r: ApiRecord): Value => ({
  text: r.text,
  richText: r.richText ?? escapeHtml(r.text),
  plurals: [],
  notes: r.notes,
  characterLimit: r.characterLimit,
  status: r.status,
  assignee: r.assignee,
});

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>');
}

/** Groups records into texts, in the order of their first record. */
export function groupRecords(records: readonly ApiRecord[], kind: Text['kind']): Text[] {
  const texts = new Map<string, Text>();
  const owners = new Map<string, Value>();
  for (const r of records) {
    const developerId = r.pluralForm ? r.id.slice(0, -(r.pluralForm.length + 1)) : r.id;
    let text = texts.get(developerId);
    if (!text) {
      text = {
        developerId,
        kind,
        name: r.name ?? null,
        blockName: r.blockName ?? null,
        folderId: r.folderId ?? null,
        projectId: r.projectId ?? null,
        componentId: r.componentId ?? null,
        tags: r.tags,
        etag: r.etag ?? null,
        base: emptyValue(r),
        variants: new Map(),
        ...(r.translationStates ? { translationStates: r.translationStates } : {}),
      };
      texts.set(developerId, text);
    }
    const ownerKey = `${developerId}\u0000${r.variantId ?? ''}`;
    let owner = owners.get(ownerKey);
    if (!owner) {
      owner = emptyValue(r);
      if (r.translationState) owner.translationState = r.translationState;
      owners.set(ownerKey, owner);
      if (r.variantId === null) text.base = owner;
      else text.variants.set(r.variantId, owner);
    }
    if (r.pluralForm)
      owner.plurals.push({ form: r.pluralForm, text: r.text, richText: r.richText ?? escapeHtml(r.text) });
  }
  return [...texts.values()];
}

/** Characters a reader sees: the text without markup. */
export const visibleLength = (text: string) => [...text].length;

export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;

/** The plural categories a locale uses, as the browser's CLDR data says. */
export function pluralCategories(locale: string | null | undefined): string[] {
  try {
    const rules = new Intl.PluralRules(locale || 'en');
    const used = new Set(rules.resolvedOptions().pluralCategories as string[]);
    return PLURAL_CATEGORIES.filter((c) => used.has(c));
  } catch {
    return ['one', 'other'];
  }
}

/**
 * The placeholder syntax the server resolves: a variable name (an identifier) in double braces,
 * optionally padded with spaces.
 */
export const PLACEHOLDER = /\{\{ *([A-Za-z_][A-Za-z0-9_]*) *\}\}/g;

/** `{{name}}` placeholders in a text, in order, once each. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
}

/** The state of a variant's value of a text: the server's word, else what the values alone tell. */
export function translationState(text: Text, variantId: string): TranslationState | 'translated' {
  const told = text.translationStates?.[variantId] ?? text.variants.get(variantId)?.translationState;
  if (told) return told;
  return text.variants.has(variantId) ? 'translated' : 'missing';
}

/**
 * The workspace variables whose placeholders appear in any of the texts (base, plural forms,
 * every variant): the list a save sends, since the server links variables per text, not per
 * variant, and resolves only listed ones. Unknown names stay literal and are not sent.
 */
export function usedVariables(texts: readonly string[], known: ReadonlySet<string>): string[] {
  const used = new Set<string>();
  for (const text of texts) for (const name of placeholders(text)) if (known.has(name)) used.add(name);
  return [...used];
}

/** Every stored text of a value: its display text and its plural forms. */
export const valueTexts = (value: Value): string[] => [value.text, ...value.plurals.map((p) => p.text)];

/** Markup as the server stores it and as the editor writes it (paragraphs), in one form: lines joined by `<br>`. */
export function normalMarkup(html: string): string {
  return html
    .replace(/<\/p>\s*<p>/g, '<br>')
    .replace(/<\/?p>/g, '')
    .replace(/<br\s*\/?>/g, '<br>')
    .trim();
}

/** The plain text of stored markup: line breaks kept, tags dropped, entities decoded. */
export function markupText(html: string): string {
  return normalMarkup(html)
    .replace(/<br>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');
}
