import { type Static, Type } from 'typebox';
import { DeveloperId } from '../../http/schemas.js';

/** PUT /v2/statuses's body: the whole workflow in order, and where the records of a removed status go. */
export const ReplaceBody = Type.Object(
  {
    statuses: Type.Array(
      Type.Object(
        { id: DeveloperId, name: Type.String({ minLength: 1, maxLength: 200 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
    reassign: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'For each removed status still in use, the kept status its records move to',
      }),
    ),
  },
  { additionalProperties: false },
);

export type ReplaceStatusesInput = Static<typeof ReplaceBody>;
