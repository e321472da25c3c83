import { type Static, Type } from 'typebox';
import { DeveloperId, Nullable } from '../../http/schemas.js';

/** GET /v2/translationMemory's query: one of `text`, `textItemId` or `componentId`, and the variant. */
export const MemoryQuery = Type.Object(
  {
    variantId: DeveloperId,
    text: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'The base text to find matches for' }),
    ),
    textItemId: Type.Optional(
      Type.String({ ...DeveloperId, description: 'A text item: its base text, itself left out' }),
    ),
    componentId: Type.Optional(
      Type.String({ ...DeveloperId, description: 'A component: its base text, itself left out' }),
    ),
    minScore: Type.Optional(
      Type.Integer({ minimum: 40, maximum: 100, default: 50, description: 'The lowest match percentage answered' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
  },
  { additionalProperties: false },
);
export type MemoryQuery = Static<typeof MemoryQuery>;

export const MemoryMatch = Type.Object({
  score: Type.Integer({
    description: '100 for an identical base text; otherwise the trigram similarity in percent, at most 99',
  }),
  exact: Type.Boolean(),
  source: Type.String({ description: 'The base text of the match' }),
  text: Type.String({ description: "The match's value in the variant: the translation to reuse" }),
  richText: Nullable(Type.String()),
  variantId: Type.String({ description: 'The variant the value is in: the one asked for, or another of its locale' }),
  status: Type.String({ description: "The value's status" }),
  kind: Type.Union([Type.Literal('textItem'), Type.Literal('component')]),
  id: Type.String({ description: 'Developer ID of the text item or component the match comes from' }),
  name: Nullable(Type.String({ description: 'Components only' })),
  projectId: Nullable(Type.String({ description: 'Text items: the project (or base) that holds it' })),
  folderId: Nullable(Type.String({ description: 'Components: the folder, null at the library root' })),
});

export const MemoryResponse = Type.Object({
  variantId: Type.String(),
  localeCode: Nullable(Type.String()),
  source: Type.String({ description: 'The base text the matches are for' }),
  matches: Type.Array(MemoryMatch),
});
export type MemoryResponse = Static<typeof MemoryResponse>;
