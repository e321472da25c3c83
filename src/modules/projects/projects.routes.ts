import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { DeveloperIds, developerIdsBody, Nullable, Success, withErrors } from '../../http/schemas.js';
import { createBody, updateBody } from './projects.schemas.js';
import type { ProjectsService } from './projects.service.js';

export const Project = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String(),
  baseId: Nullable(Type.String({ description: 'Developer ID of the connected base, null if none' })),
  developerMode: Type.Boolean({ description: 'Whether the deprecated v0 and v1 APIs can reach the project' }),
});

export const projectsRoutes: FastifyPluginAsyncTypebox<{ projects: ProjectsService; limits: Limits }> = async (
  app,
  { projects, limits },
) => {
  app.get(
    '/projects',
    {
      schema: {
        tags: ['projects'],
        summary: 'List the projects in creation order',
        response: withErrors({ 200: Type.Array(Project) }),
      },
    },
    (request) => projects.listProjects(workspaceOf(request)),
  );

  app.post(
    '/projects',
    {
      schema: {
        tags: ['projects'],
        summary: 'Create projects, all or none',
        description:
          'A project without `developerId` gets a slug of its name. Projects and bases share one developer-ID namespace (409 on a clash with either). `developerMode` defaults to false: the deprecated v0 and v1 APIs reach only projects that turn it on.',
        body: createBody(limits.batchItems),
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await projects.createProjects(scopeOf(request), request.body.projects);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/projects',
    {
      schema: {
        tags: ['projects'],
        summary: 'Update projects, all or none',
        description:
          'Only the fields sent change. `newDeveloperId` gives the project a new developer ID (409 when another project or base has it). `baseId: null` disconnects the project from its base; when the base changes, items derived from the old base lose their `baseTextItemId`.',
        body: updateBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404, 409),
      },
    },
    async (request) => {
      await projects.updateProjects(scopeOf(request), request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/projects',
    {
      schema: {
        tags: ['projects'],
        summary: 'Delete projects with their blocks and text items, all or none',
        body: developerIdsBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await projects.removeProjects(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
