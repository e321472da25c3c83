import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { workspaceOf } from '../../http/auth.js';
import { DeveloperId, DeveloperIds, developerIdsBody, Nullable, Success, withErrors } from '../../http/schemas.js';
import type { Services } from '../../services.js';

const MAX_BATCH = 1000;

const Name = Type.String({ minLength: 1, maxLength: 200 });
const BaseRef = Nullable(
  Type.String({ description: 'Developer ID of the base the project derives text from; null: not connected' }),
);

const Project = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String(),
  baseId: Nullable(Type.String({ description: 'Developer ID of the connected base, null if none' })),
  developerMode: Type.Boolean({ description: 'Whether the deprecated v0 API can reach the project' }),
});

const CreateBody = Type.Object(
  {
    projects: Type.Array(
      Type.Object(
        {
          name: Name,
          developerId: Type.Optional(DeveloperId),
          baseId: Type.Optional(BaseRef),
          developerMode: Type.Optional(Type.Boolean({ default: true })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_BATCH },
    ),
  },
  { additionalProperties: false },
);

const UpdateBody = Type.Object(
  {
    updates: Type.Array(
      Type.Object(
        {
          developerId: DeveloperId,
          name: Type.Optional(Name),
          baseId: Type.Optional(BaseRef),
          developerMode: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_BATCH },
    ),
  },
  { additionalProperties: false },
);

export const projectsRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/projects',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projects'],
        summary: 'List the projects in creation order',
        response: withErrors({ 200: Type.Array(Project) }),
      },
    },
    (request) => services.projects.listProjects(workspaceOf(request)),
  );

  app.post(
    '/projects',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projects'],
        summary: 'Create projects, all or none',
        description:
          'A project without `developerId` gets a slug of its name. Projects and bases share one developer-ID namespace (409 on a clash with either). `developerMode` defaults to true.',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await services.projects.createProjects(workspaceOf(request), request.body.projects);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/projects',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projects'],
        summary: 'Update projects, all or none',
        description:
          'Only the fields sent change. `baseId: null` disconnects the project from its base; when the base changes, items derived from the old base lose their `baseTextItemId`.',
        body: UpdateBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await services.projects.updateProjects(workspaceOf(request), request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/projects',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projects'],
        summary: 'Delete projects with their blocks and text items, all or none',
        body: developerIdsBody(MAX_BATCH),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await services.projects.removeProjects(workspaceOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
