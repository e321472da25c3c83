import { type Static, Type } from 'typebox';
import { batchBody, DeveloperId, Nullable } from '../../http/schemas.js';

const LocaleCode = Nullable(
  Type.String({ description: 'BCP 47 language tag such as `fr` or `en-US`, stored in canonical form; null for none' }),
);

export const createBody = (maxItems: number) =>
  batchBody(
    'variants',
    {
      name: Type.String({ minLength: 1 }),
      developerId: Type.Optional(DeveloperId),
      description: Type.Optional(Type.String()),
      localeCode: Type.Optional(LocaleCode),
    },
    maxItems,
  );

export const updateBody = (maxItems: number) =>
  batchBody(
    'updates',
    {
      developerId: DeveloperId,
      name: Type.Optional(Type.String({ minLength: 1 })),
      description: Type.Optional(Type.String()),
      localeCode: Type.Optional(LocaleCode),
      newDeveloperId: Type.Optional(DeveloperId),
    },
    maxItems,
  );

/** One variant of POST /v2/variants, and one change of PATCH /v2/variants. */
export type NewVariantInput = Static<ReturnType<typeof createBody>>['variants'][number];
export type VariantUpdate = Static<ReturnType<typeof updateBody>>['updates'][number];
