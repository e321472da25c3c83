import { type Static, Type } from 'typebox';
import { DeveloperId, Nullable } from '../../http/schemas.js';

/** GET /v2/glossary's query: the variant being written, and the texts as the writer has them now. */
export const GlossaryQuery = Type.Object(
  {
    variantId: DeveloperId,
    text: Type.Optional(Type.String({ maxLength: 5000, description: 'The base text' })),
    variantText: Type.Optional(Type.String({ maxLength: 5000, description: "The variant's text, saved or not" })),
  },
  { additionalProperties: false },
);
export type GlossaryQuery = Static<typeof GlossaryQuery>;

export const GlossaryTerm = Type.Object({
  styleguideId: Type.String(),
  sectionId: Type.String(),
  termId: Type.String(),
  preferred: Type.String(),
  replaces: Type.Array(Type.String(), { description: 'The forbidden forms: a lint finding wherever they are used' }),
  caseSensitive: Type.Boolean(),
  note: Type.String(),
  scoped: Type.Boolean({ description: "From a guide scoped to the variant's locale (all its terms are listed)" }),
  inText: Type.Boolean({ description: 'The preferred or a forbidden form occurs in the base text' }),
  inVariantText: Type.Union([Type.Literal('preferred'), Type.Literal('forbidden'), Type.Null()], {
    description: "Which form occurs in the variant's text, forbidden first",
  }),
});

export const GlossaryResponse = Type.Object({
  variantId: Type.String(),
  localeCode: Nullable(Type.String()),
  terms: Type.Array(GlossaryTerm),
  truncated: Type.Boolean({ description: 'More terms apply than the 200 listed' }),
});
export type GlossaryResponse = Static<typeof GlossaryResponse>;
