import { type Static, Type } from 'typebox';
import { batchBody } from '../../http/schemas.js';
import { VARIABLE_NAME_MAX, VARIABLE_TYPES } from './variable-data.js';

export const NAME_RULE = `matches ^[A-Za-z_][A-Za-z0-9_]*$, at most ${VARIABLE_NAME_MAX} characters`;

export const DATA_DESCRIPTION =
  'Depends on `type`. string: `{ example: string, fallback?: string }`; number: `{ example, fallback? }`, each a number or a string holding one (`"18"`), returned as given; ' +
  'hyperlink: `{ text, url }` with an absolute URL; list: a non-empty array of strings; ' +
  'map: an object with at least one entry whose keys and values are strings.';

// An enum rather than a union of literals, so that a wrong type gets one "must be one of" message.
export const VariableType = Type.Unsafe<(typeof VARIABLE_TYPES)[number]>({
  type: 'string',
  enum: [...VARIABLE_TYPES],
  description: 'Variable type',
});

const DeveloperIdOfVariable = Type.String({ minLength: 1, description: 'Developer ID of a variable: its name' });

/** The bodies of the batch routes: at most `maxItems` (LIMIT_BATCH_ITEMS) variables each. */
export function bodies(maxItems: number) {
  const CreateBody = batchBody(
    'variables',
    {
      name: Type.String({ description: `Variable name and developer ID; ${NAME_RULE}` }),
      type: VariableType,
      // Checked by the service against `type`, so that a 400 names the element and the field.
      data: Type.Unknown({ description: DATA_DESCRIPTION }),
    },
    maxItems,
  );

  const UpdateBody = batchBody(
    'updates',
    {
      developerId: DeveloperIdOfVariable,
      data: Type.Unknown({
        description: `The new data, checked against the variable's type. ${DATA_DESCRIPTION}`,
      }),
    },
    maxItems,
  );

  const DeleteBody = Type.Object(
    { developerIds: Type.Array(DeveloperIdOfVariable, { minItems: 1, maxItems }) },
    { additionalProperties: false },
  );
  return { CreateBody, UpdateBody, DeleteBody };
}

type Bodies = ReturnType<typeof bodies>;
/** One variable of POST /v2/variables, and one change of PATCH /v2/variables. */
export type NewVariableInput = Static<Bodies['CreateBody']>['variables'][number];
export type VariableUpdateInput = Static<Bodies['UpdateBody']>['updates'][number];
