import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { workspaceOf } from '../../http/auth.js';
import { DeveloperId, DeveloperIds, developerIdsBody, Success, withErrors } from '../../http/schemas.js';
import type { Services } from '../../services.js';

const MAX_BATCH = 1000;

const Base = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String(),
});

const CreateBody = Type.Object(
  {
    bases: Type.Array(
      Type.Object(
        { name: Type.String({ minLength: 1, maxLength: 200 }), developerId: Type.Optional(DeveloperId) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_BATCH },
    ),
  },
  { additionalProperties: false },
);

export const basesRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/bases',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['bases'],
        summary: 'List the bases in creation order',
        response: withErrors({ 200: Type.Array(Base) }),
      },
    },
    (request) => services.projects.listBases(workspaceOf(request)),
  );

  app.post(
    '/bases',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['bases'],
        summary: 'Create bases, all or none',
        description:
          'A base without `developerId` gets a slug of its name. Bases and projects share one developer-ID namespace (409 on a clash with either).',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await services.projects.createBases(workspaceOf(request), request.body.bases);
      return reply.status(201).send({ developerIds });
    },
  );

  app.delete(
    '/bases',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['bases'],
        summary: 'Delete bases with their text items, all or none',
        description:
          'Projects connected to a deleted base are disconnected (`baseId` null); project items derived from its items keep their text and lose `baseTextItemId`.',
        body: developerIdsBody(MAX_BATCH),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await services.projects.removeBases(workspaceOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
