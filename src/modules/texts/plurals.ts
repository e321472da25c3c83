import type { PluralForm, StoredPlural } from '../../db/schema.js';

/** The CLDR plural categories, in CLDR order: the order of plural records in every response. */
export const PLURAL_FORMS: readonly PluralForm[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

const FORM_RANK = new Map(PLURAL_FORMS.map((form, index) => [form, index]));

export const isPluralForm = (value: string): value is PluralForm => FORM_RANK.has(value as PluralForm);

const rankOf = (plural: StoredPlural) => FORM_RANK.get(plural.form) ?? 0;

/** Plural forms in CLDR order, whatever order they were stored in (a copy; most are stored in order, and then not sorted). */
export function inCldrOrder(plurals: readonly StoredPlural[]): StoredPlural[] {
  const copy = plurals.slice();
  for (let i = 1; i < copy.length; i++) {
    if (rankOf(copy[i - 1] as StoredPlural) > rankOf(copy[i] as StoredPlural)) {
      return copy.sort((a, b) => rankOf(a) - rankOf(b));
    }
  }
  return copy;
}

/** The developer ID of the record of one plural form (`cart_one`: clients write these ids into files verbatim, so the suffix comes from the server). */
export const pluralRecordId = (developerId: string, form: PluralForm) => `${developerId}_${form}`;

/** `cart_one` -> `{ base: 'cart', form: 'one' }`: the component whose plural record this id would be. */
export function splitPluralRecordId(developerId: string): { base: string; form: PluralForm } | null {
  const at = developerId.lastIndexOf('_');
  if (at <= 0) return null;
  const form = developerId.slice(at + 1);
  return isPluralForm(form) ? { base: developerId.slice(0, at), form } : null;
}

export function parseStoredPlurals(json: string | null): StoredPlural[] | null {
  if (json === null) return null;
  const plurals = JSON.parse(json) as StoredPlural[];
  return plurals.length === 0 ? null : plurals;
}

export const serializePlurals = (plurals: readonly StoredPlural[] | null): string | null =>
  plurals === null || plurals.length === 0 ? null : JSON.stringify(plurals);
