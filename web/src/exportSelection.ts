/** Exporting a selection: pure helpers, unit-tested in test/web/routes.test.ts. */

/** Formats whose files are one JSON object keyed by developer ID (plural forms as `<id>_<form>`). */
export const JSON_FORMATS = ['json_i18next', 'json_icu', 'json_vue_i18n', 'arb'];
const FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** The keys of an exported JSON file that belong to the chosen texts (their plural keys and ARB metadata included). */
export function keepKeys(file: Record<string, unknown>, ids: ReadonlySet<string>): Record<string, unknown> {
  const belongs = (key: string) => {
    const bare = key.startsWith('@') && !key.startsWith('@@') ? key.slice(1) : key;
    if (ids.has(bare)) return true;
    const cut = bare.lastIndexOf('_');
    return cut > 0 && FORMS.includes(bare.slice(cut + 1)) && ids.has(bare.slice(0, cut));
  };
  return Object.fromEntries(Object.entries(file).filter(([key]) => key.startsWith('@@') || belongs(key)));
}
