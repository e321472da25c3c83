import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import {
  batchBody,
  DeveloperId,
  DeveloperIds,
  developerIdsBody,
  Nullable,
  Success,
  withErrors,
} from '../../http/schemas.js';
import type { FoldersService } from './folders.service.js';

const Folder = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String({ description: 'Folder name' }),
  parentId: Nullable(
    Type.String({ description: 'Developer ID of the parent folder; null directly under the library root' }),
  ),
});

const createBody = (maxItems: number) =>
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

export const foldersRoutes: FastifyPluginAsyncTypebox<{ folders: FoldersService; limits: Limits }> = async (
  app,
  { folders, limits },
) => {
  const CreateBody = createBody(limits.batchItems);

  app.get(
    '/componentFolders',
    {
      schema: {
        tags: ['componentFolders'],
        summary: 'List the component folders in creation order',
        response: withErrors({ 200: Type.Array(Folder) }),
      },
    },
    (request) => folders.list(workspaceOf(request)),
  );

  app.post(
    '/componentFolders',
    {
      schema: {
        tags: ['componentFolders'],
        summary: 'Create component folders, all or none',
        description:
          'A folder without `developerId` gets a slug of its name. `root` is reserved. Folder names are unique among siblings (409).',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await folders.create(scopeOf(request), request.body.folders);
      return reply.status(201).send({ developerIds });
    },
  );

  app.delete(
    '/componentFolders',
    {
      schema: {
        tags: ['componentFolders'],
        summary: 'Delete component folders, all or none',
        description:
          'Components and subfolders of a deleted folder move to its nearest surviving ancestor, or to the library root.',
        body: developerIdsBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await folders.remove(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
