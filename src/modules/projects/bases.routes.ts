import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { DeveloperIds, developerIdsBody, Success, withErrors } from '../../http/schemas.js';
import { createBasesBody } from './projects.schemas.js';
import type { ProjectsService } from './projects.service.js';

export const Base = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String(),
});

export const basesRoutes: FastifyPluginAsyncTypebox<{ projects: ProjectsService; limits: Limits }> = async (
  app,
  { projects, limits },
) => {
  app.get(
    '/bases',
    {
      schema: {
        tags: ['bases'],
        summary: 'List the bases in creation order',
        response: withErrors({ 200: Type.Array(Base) }),
      },
    },
    (request) => projects.listBases(workspaceOf(request)),
  );

  app.post(
    '/bases',
    {
      schema: {
        tags: ['bases'],
        summary: 'Create bases, all or none',
        description:
          'A base without `developerId` gets a slug of its name. Bases and projects share one developer-ID namespace (409 on a clash with either).',
        body: createBasesBody(limits.batchItems),
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await projects.createBases(scopeOf(request), request.body.bases);
      return reply.status(201).send({ developerIds });
    },
  );

  app.delete(
    '/bases',
    {
      schema: {
        tags: ['bases'],
        summary: 'Delete bases with their text items, all or none',
        description:
          'Projects connected to a deleted base are disconnected (`baseId` null); project items derived from its items keep their text and lose `baseTextItemId`.',
        body: developerIdsBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await projects.removeBases(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
