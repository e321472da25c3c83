import { type Static, Type } from 'typebox';
import { batchBody, DEVELOPER_ID_PATTERN, DeveloperId, Nullable } from '../../http/schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const BaseRef = Nullable(
  Type.String({ description: 'Developer ID of the base the project derives text from; null: not connected' }),
);

export const createBody = (maxItems: number) =>
  batchBody(
    'projects',
    {
      name: Name,
      developerId: Type.Optional(DeveloperId),
      baseId: Type.Optional(BaseRef),
      developerMode: Type.Optional(
        Type.Boolean({ default: false, description: 'Let the deprecated v0 and v1 APIs reach the project' }),
      ),
    },
    maxItems,
  );

export const updateBody = (maxItems: number) =>
  batchBody(
    'updates',
    {
      developerId: DeveloperId,
      newDeveloperId: Type.Optional(
        Type.String({
          pattern: DEVELOPER_ID_PATTERN,
          description:
            'A new developer ID, not held by another project or base (409); the project keeps its history, blocks and text items',
        }),
      ),
      name: Type.Optional(Name),
      baseId: Type.Optional(BaseRef),
      developerMode: Type.Optional(
        Type.Boolean({ description: 'Let the deprecated v0 and v1 APIs reach the project (true) or not' }),
      ),
    },
    maxItems,
  );

/** POST /v2/bases's body. */
export const createBasesBody = (maxItems: number) =>
  batchBody(
    'bases',
    { name: Type.String({ minLength: 1, maxLength: 200 }), developerId: Type.Optional(DeveloperId) },
    maxItems,
  );

/** One project of POST /v2/projects, and one change of PATCH /v2/projects. */
export type NewProjectInput = Static<ReturnType<typeof createBody>>['projects'][number];
export type ProjectUpdate = Static<ReturnType<typeof updateBody>>['updates'][number];
/** One base of POST /v2/bases. */
export type NewBaseInput = Static<ReturnType<typeof createBasesBody>>['bases'][number];
