/** Plural forms read from a file, put back into the stored shape (rules in docs/import.md). */
import type { PluralForm } from '../../db/schema.js';
import { localeCategories, PLURAL_ORDER } from '../shared/plurals.js';
import type { ParsedForm } from './types.js';

const FORMS = new Set<string>(PLURAL_ORDER);
export const isForm = (value: string): value is PluralForm => FORMS.has(value);

/**
 * The stored text and forms of a plural value. Exports fill every category the locale needs
 * from `other`, so a category whose text is `other`'s is such a copy and is not stored (an
 * explicit "exactly 0", ICU `=0`, always is). The form that equals the display text goes first,
 * as stored texts keep it; without a display text (ICU, vue-i18n) it is `other`.
 */
export function settlePlurals(
  primary: string | null,
  found: ReadonlyMap<PluralForm, string>,
  locale: string,
  explicitZero = false,
): { text: string; plurals: ParsedForm[] } {
  if (found.size === 0) return { text: primary ?? '', plurals: [] };
  const forms = new Map(found);
  const other = forms.get('other');
  if (other !== undefined) {
    for (const form of localeCategories(locale)) {
      if (form === 'other' || (form === 'zero' && explicitZero)) continue;
      if (forms.get(form) === other) forms.delete(form);
    }
  }
  const ordered = PLURAL_ORDER.flatMap((form) => {
    const text = forms.get(form);
    return text === undefined ? [] : [{ form, text }];
  });
  const display = primary ?? other ?? ordered[ordered.length - 1]!.text;
  const first = ordered.findIndex((plural) => plural.text === display);
  if (first > 0) ordered.unshift(ordered.splice(first, 1)[0]!);
  return { text: ordered[0]!.text, plurals: ordered };
}

/** The forms of a group that has none: one shared empty map rather than one per key. */
const NO_FORMS: ReadonlyMap<PluralForm, never> = new Map<PluralForm, never>();

/**
 * Flat keys grouped the i18next way: `<key>_<form>` is a plural form of `<key>` when the file
 * also has `<key>` or `<key>_other`; the plain `<key>` is the display text. A group without forms
 * shares one empty map: a file of 200,000 keys is mostly such groups.
 */
export function groupPluralKeys<T extends { key: string }>(
  items: readonly T[],
): Array<{ key: string; primary: T | null; forms: ReadonlyMap<PluralForm, T> }> {
  const keys = new Set<string>();
  for (const item of items) keys.add(item.key);
  const groups = new Map<string, { key: string; primary: T | null; forms: ReadonlyMap<PluralForm, T> }>();
  const groupOf = (key: string) => {
    let group = groups.get(key);
    if (!group) {
      group = { key, primary: null, forms: NO_FORMS };
      groups.set(key, group);
    }
    return group;
  };
  for (const item of items) {
    const at = item.key.lastIndexOf('_');
    const base = at > 0 ? item.key.slice(0, at) : '';
    const form = item.key.slice(at + 1);
    if (at > 0 && isForm(form) && (keys.has(base) || keys.has(`${base}_other`))) {
      const group = groupOf(base);
      if (group.forms === NO_FORMS) group.forms = new Map();
      (group.forms as Map<PluralForm, T>).set(form, item);
    } else groupOf(item.key).primary = item;
  }
  keys.clear();
  return [...groups.values()];
}

/** The texts of a group's forms, for `settlePlurals` (the shared empty map when it has none). */
export const formTexts = (forms: ReadonlyMap<PluralForm, { text: string }>): ReadonlyMap<PluralForm, string> =>
  forms.size === 0 ? NO_FORMS : new Map([...forms].map(([form, item]) => [form, item.text]));
