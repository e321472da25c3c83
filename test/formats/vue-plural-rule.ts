import type { PluralizationRule } from '@intlify/core-base';

/**
 * The `pluralRules` entry docs/formats/json_vue_i18n.md tells apps to install, copied verbatim:
 * CLDR categories from Intl.PluralRules, and one leading form for exactly 0 when the message has one.
 */
export function cldrPluralRule(locale: string): PluralizationRule {
  const rules = new Intl.PluralRules(locale);
  const found = rules.resolvedOptions().pluralCategories as string[];
  const categories = ['zero', 'one', 'two', 'few', 'many', 'other'].filter((c) => found.includes(c));
  return (choice, choicesLength) => {
    const n = Math.abs(choice);
    // One form more than the locale has categories: the first is the form for exactly 0.
    if (choicesLength === categories.length + 1) return n === 0 ? 0 : 1 + categories.indexOf(rules.select(n));
    return Math.min(categories.indexOf(rules.select(n)), choicesLength - 1);
  };
}
