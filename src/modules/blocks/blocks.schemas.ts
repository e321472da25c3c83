import { type Static, type TSchema, Type } from 'typebox';
import { DEVELOPER_ID_PATTERN, DeveloperId } from '../../http/schemas.js';

export const ProjectId = Type.String({ pattern: DEVELOPER_ID_PATTERN, description: 'Developer ID of the project' });
const Name = Type.String({ minLength: 1, maxLength: 200 });

/** The request bodies; every list holds at most `maxItems` (the batch limit). */
export function bodies(maxItems: number) {
  const batch = <T extends TSchema>(item: T) => Type.Array(item, { minItems: 1, maxItems });
  return {
    CreateBody: Type.Object(
      {
        projectId: ProjectId,
        blocks: batch(
          Type.Object({ name: Name, developerId: Type.Optional(DeveloperId) }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
    UpdateBody: Type.Object(
      {
        projectId: ProjectId,
        updates: batch(
          Type.Object(
            {
              developerId: DeveloperId,
              name: Type.Optional(Name),
              newDeveloperId: Type.Optional(
                Type.String({
                  pattern: DEVELOPER_ID_PATTERN,
                  description:
                    'A new developer ID, not held by another block of the project (409); the block keeps its text items and history',
                }),
              ),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    DeleteBody: Type.Object(
      { projectId: ProjectId, developerIds: batch(DeveloperId) },
      { additionalProperties: false },
    ),
    OrderBody: Type.Object(
      {
        projectId: ProjectId,
        blockIds: Type.Optional(Type.Array(DeveloperId, { maxItems })),
        textItemIds: Type.Array(DeveloperId, { maxItems }),
      },
      { additionalProperties: false },
    ),
  };
}

type Bodies = ReturnType<typeof bodies>;
/** One block of POST /v2/blocks, one change of PATCH /v2/blocks, and PUT /v2/blocks/order's body. */
export type NewBlockInput = Static<Bodies['CreateBody']>['blocks'][number];
export type BlockUpdate = Static<Bodies['UpdateBody']>['updates'][number];
export type ProjectOrderInput = Static<Bodies['OrderBody']>;
