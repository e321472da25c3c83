import { LRUCache } from 'lru-cache';
import type { PluralForm } from '../../db/schema.js';
import type { ExportEntry } from '../types.js';

/** CLDR order of the plural categories, which every format writes its forms in. */
export const PLURAL_ORDER: readonly PluralForm[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

/**
 * What `Intl.PluralRules` says of a locale, per locale tag: pure functions of the tag, so never
 * invalid; bounded because a tag comes from stored data (variants' locale codes).
 */
const MAX_LOCALES = 256;
const categoriesCache = new LRUCache<string, PluralForm[]>({ max: MAX_LOCALES });
let lastCategories: { locale: string | null; categories: PluralForm[] } = { locale: null, categories: [] };

/**
 * The categories a locale needs, in CLDR order. A tag that `Intl` cannot resolve falls back to
 * the root rules (`other` only) rather than failing the whole export.
 */
export function localeCategories(locale: string): PluralForm[] {
  // An export asks for the same locale for every plural record: the last answer is kept apart.
  if (locale === lastCategories.locale) return lastCategories.categories;
  let categories = categoriesCache.get(locale);
  if (categories === undefined) {
    let found: readonly string[];
    try {
      found = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    } catch {
      found = ['other'];
    }
    categories = PLURAL_ORDER.filter((form) => form === 'other' || found.includes(form));
    categoriesCache.set(locale, categories);
  }
  lastCategories = { locale, categories };
  return categories;
}

export interface PluralText {
  form: PluralForm;
  text: string;
  richText: string | null;
}

/**
 * The forms of a plural record for targets whose `zero` key is both "exactly 0" and the locale's
 * CLDR category (stringsdict, Android): the locale's categories as in `pluralCases`, with the
 * record's zero form in front when the locale has no `zero` category of its own.
 */
export function pluralForms(entry: ExportEntry, locale: string): PluralText[] {
  const { exactZero, categories } = pluralCases(entry, locale);
  if (exactZero === null || categories.some((category) => category.form === 'zero')) return categories;
  return [exactZero, ...categories];
}

const exactZeroCache = new LRUCache<string, boolean>({ max: MAX_LOCALES });
let lastExactZero: { locale: string | null; exact: boolean } = { locale: null, exact: false };

/**
 * Whether the locale's own `zero` category holds 0 alone (ar, cy) rather than more numbers (lv:
 * 10-20, 30, ...). Only then can a record's "exactly 0" form also fill that category.
 */
export function zeroCategoryIsExactlyZero(locale: string): boolean {
  if (locale === lastExactZero.locale) return lastExactZero.exact;
  let exact = exactZeroCache.get(locale);
  if (exact === undefined) {
    exact = false;
    if (localeCategories(locale).includes('zero')) {
      const rules = new Intl.PluralRules(locale);
      exact = rules.select(0) === 'zero';
      for (let n = 1; exact && n <= 1000; n++) if (rules.select(n) === 'zero') exact = false;
    }
    exactZeroCache.set(locale, exact);
  }
  lastExactZero = { locale, exact };
  return exact;
}

export interface PluralCases {
  /** The record's `zero` form, meaning exactly 0 (ICU `=0`); null when the record has none. */
  exactZero: PluralText | null;
  /** Exactly the locale's CLDR categories in CLDR order, a missing one copied from `other`. */
  categories: PluralText[];
}

/**
 * The forms of a plural record split for targets that tell "exactly 0" apart from the locale's
 * categories (ICU, ARB, vue-i18n). The locale's `zero` category gets the record's zero form only
 * when that category is exactly 0; otherwise `other`, so Latvian 10 never reads "no items".
 */
export function pluralCases(entry: ExportEntry, locale: string): PluralCases {
  // A record has at most six forms: looked up by scanning them, with no map per record.
  const { plurals } = entry;
  const formOf = (form: PluralForm) => {
    for (const plural of plurals) if (plural.form === form) return plural;
    return undefined;
  };
  const other = formOf('other') ?? entry;
  const zero = formOf('zero');
  const zeroFits = zeroCategoryIsExactlyZero(locale);
  const forms = localeCategories(locale);
  const categories: PluralText[] = [];
  for (const form of forms) {
    const source = form === 'zero' && !zeroFits ? other : (formOf(form) ?? other);
    categories.push({ form, text: source.text, richText: source.richText });
  }
  return { exactZero: zero ? { form: 'zero', text: zero.text, richText: zero.richText } : null, categories };
}
