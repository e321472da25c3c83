import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { DeveloperIds, developerIdsBody, Nullable, Success, withErrors } from '../../http/schemas.js';
import { createBody, updateBody } from './folders.schemas.js';
import type { FoldersService } from './folders.service.js';

export const Folder = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String({ description: 'Folder name' }),
  parentId: Nullable(
    Type.String({ description: 'Developer ID of the parent folder; null directly under the library root' }),
  ),
});

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

  app.patch(
    '/componentFolders',
    {
      schema: {
        tags: ['componentFolders'],
        summary: 'Rename, move or re-identify component folders, all or none',
        description:
          'Only the fields sent change. A folder moves with everything it holds; it cannot move into itself or one of its own subfolders (400 naming `parentId`). A new developer ID taken by another folder, or a name taken under the target parent, is a 409.',
        body: updateBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404, 409),
      },
    },
    async (request) => {
      await folders.update(scopeOf(request), request.body.updates);
      return { success: true as const };
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
