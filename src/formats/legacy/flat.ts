import type { LegacyText } from './types.js';

/**
 * `flat`: developer ID to text, and `<id>_<form>` to the text of each plural form (the ids of
 * the plural records of the v2 API). Rich text never changes it: it is the plain text.
 */
export function flatBody(texts: readonly LegacyText[]): Record<string, string> {
  const body: Record<string, string> = {};
  for (const text of texts) {
    body[text.id] = text.text;
    for (const plural of text.plurals) body[`${text.id}_${plural.form}`] = plural.text;
  }
  return body;
}
