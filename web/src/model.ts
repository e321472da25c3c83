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
}

export interface Value {
  text: string;
  richText: string;
  plurals: { form: string; text: string; richText: string }[];
  notes: string;
  characterLimit: number | null;
  status: string;
  assignee: string | null;
}

export interface Text {
  developerId: string;
  kind: 'textItem' | 'component';
  name: string | null;
  blockName: string | null;
  folderId: string | null;
  componentId: string | null;
  tags: string[];
  etag: string | null;
  base: Value;
  variants: Map<string, Value>;
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
        componentId: r.componentId ?? null,
        tags: r.tags,
        etag: r.etag ?? null,
        base: emptyValue(r),
        variants: new Map(),
      };
      texts.set(developerId, text);
    }
    const ownerKey = `${developerId}\u0000${r.variantId ?? ''}`;
    let owner = owners.get(ownerKey);
    if (!owner) {
      owner = emptyValue(r);
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

/** `{{name}}` placeholders in a text, in order, once each. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g)].map((m) => m[1] ?? ''))];
}
