import type { PluralForm } from '../../db/schema.js';

/**
 * The plural forms a locale needs (CLDR's cardinal categories, from Intl.PluralRules), in CLDR
 * order, and which of the source's forms each is translated from: the same category when the
 * source has it, else `other` (the source language's general plural), else its last form.
 */
const ORDER: readonly PluralForm[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

export function pluralFormsOf(locale: string): PluralForm[] {
  let categories: string[];
  try {
    categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  } catch {
    categories = ['one', 'other'];
  }
  return ORDER.filter((form) => categories.includes(form));
}

export function sourceFormFor(target: PluralForm, source: readonly PluralForm[]): PluralForm {
  if (source.includes(target)) return target;
  if (source.includes('other')) return 'other';
  return source[source.length - 1] ?? 'other';
}
