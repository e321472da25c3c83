import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { workspaceOf } from '../../http/auth.js';
import { DeveloperId, DeveloperIds, developerIdsBody, Nullable, Success, withErrors } from '../../http/schemas.js';
import type { Services } from '../../services.js';

const MAX_BATCH = 1000;

const Folder = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String({ description: 'Folder name' }),
  parentId: Nullable(
    Type.String({ description: 'Developer ID of the parent folder; null directly under the library root' }),
  ),
});

const CreateBody = Type.Object(
  {
    folders: Type.Array(
      Type.Object(
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
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_BATCH },
    ),
  },
  { additionalProperties: false },
);

export const foldersRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/componentFolders',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['componentFolders'],
        summary: 'List the component folders in creation order',
        response: withErrors({ 200: Type.Array(Folder) }),
      },
    },
    (request) => services.folders.list(workspaceOf(request)),
  );

  app.post(
    '/componentFolders',
    {
      config: { auth: 'v2' },
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
      const developerIds = await services.folders.create(workspaceOf(request), request.body.folders);
      return reply.status(201).send({ developerIds });
    },
  );

  app.delete(
    '/componentFolders',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['componentFolders'],
        summary: 'Delete component folders, all or none',
        description:
          'Components and subfolders of a deleted folder move to its nearest surviving ancestor, or to the library root.',
        body: developerIdsBody(MAX_BATCH),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await services.folders.remove(workspaceOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
