import { type TArray, type TObject, type TProperties, type TSchema, Type } from 'typebox';

/** A developer ID: 1 to 128 letters, digits, '.', '_' and '-', starting with a letter or digit. */
export const DEVELOPER_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$';

export const DeveloperId = Type.String({ pattern: DEVELOPER_ID_PATTERN, description: 'Developer ID' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorResponse = Type.Object(
  {
    message: Type.String(),
    code: Type.Optional(Type.String()),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'Error', description: 'Every error has this shape' },
);

export const Success = Type.Object({ success: Type.Literal(true) });
export const DeveloperIds = Type.Object({ developerIds: Type.Array(Type.String()) });

/**
 * The body of a batch route, `{ [field]: [element, ...] }`: one to `maxItems` elements, each an
 * object with exactly `properties`, and no other field in the body.
 */
export function batchBody<K extends string, P extends TProperties>(field: K, properties: P, maxItems: number) {
  const list = Type.Array(Type.Object(properties, { additionalProperties: false }), { minItems: 1, maxItems });
  return Type.Object({ [field]: list } as { [F in K]: TArray<TObject<P>> }, { additionalProperties: false });
}

/** Body `{ developerIds: [...] }` of the batch deletes. */
export function developerIdsBody(maxItems: number) {
  return Type.Object(
    { developerIds: Type.Array(DeveloperId, { minItems: 1, maxItems }) },
    { additionalProperties: false },
  );
}

const errorRef = Type.Unsafe<{ message: string; code?: string; requestId?: string }>(Type.Ref('Error'));

/** The error responses every authenticated route can give, for the OpenAPI document. */
export function withErrors<R extends Record<number, TSchema>>(responses: R, ...statuses: number[]) {
  const all: Record<number, TSchema> = { ...responses };
  for (const status of [400, 401, 429, 500, ...statuses]) all[status] = errorRef;
  return all as R;
}
