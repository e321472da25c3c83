import { type Static, Type } from 'typebox';
import { batchBody, DEVELOPER_ID_PATTERN, DeveloperId, Nullable } from '../../http/schemas.js';

export const createBody = (maxItems: number) =>
  batchBody(
    'folders',
    {
      name: Type.String({ minLength: 1, maxLength: 200, description: 'Unique among the folders of one parent' }),
      developerId: Type.Optional(DeveloperId),
      parentId: Type.Optional(
        Nullable(
          Type.String({
            description:
              'Developer ID of an existing folder or of one created earlier in this request; null or `root` for the library root',
          }),
        ),
      ),
    },
    maxItems,
  );

export const updateBody = (maxItems: number) =>
  batchBody(
    'updates',
    {
      developerId: DeveloperId,
      name: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'New name, unique among the folders of its parent' }),
      ),
      parentId: Type.Optional(
        Nullable(
          Type.String({
            description:
              'Developer ID of the folder to move it into (as it is before this request); null or `root` for the library root. Not the folder itself nor one below it',
          }),
        ),
      ),
      newDeveloperId: Type.Optional(
        Type.String({
          pattern: DEVELOPER_ID_PATTERN,
          description: 'A new developer ID, not held by another folder; the folder keeps its history',
        }),
      ),
    },
    maxItems,
  );

/** One folder of POST /v2/components/folders, and one change of its PATCH. */
export type NewFolderInput = Static<ReturnType<typeof createBody>>['folders'][number];
export type FolderUpdateInput = Static<ReturnType<typeof updateBody>>['updates'][number];
