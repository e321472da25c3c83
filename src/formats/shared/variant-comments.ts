import type { DocumentHeader } from '../types.js';

/**
 * The texts of the two comments a variant export of the non-JSON formats starts with, as the
 * original writes them: `Variant Name: French` and `Variant Description: ...`, the second also
 * when the description is empty (then without a trailing space). Base text has none.
 * `excludeVariantMetadata` does not apply: it is a parameter of the JSON formats, and comments
 * are never read as strings by any consumer (docs/exports.md).
 */
export function variantCommentTexts(document: DocumentHeader): string[] {
  const { variant } = document;
  if (variant === null) return [];
  const description = variant.description === '' ? '' : ` ${variant.description}`;
  return [`Variant Name: ${variant.name}`, `Variant Description:${description}`];
}
