import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from 'typebox';
import { workspaceOf } from '../../http/auth.js';
import { DEVELOPER_ID_PATTERN, DeveloperId, DeveloperIds, Success, withErrors } from '../../http/schemas.js';
import type { Services } from '../../services.js';

const MAX_BATCH = 1000;

const ProjectId = Type.String({ pattern: DEVELOPER_ID_PATTERN, description: 'Developer ID of the project' });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Block = Type.Object({
  id: Type.String({ description: 'Developer ID, unique within the project' }),
  name: Type.String(),
});

const batch = <T extends TSchema>(item: T) => Type.Array(item, { minItems: 1, maxItems: MAX_BATCH });

const CreateBody = Type.Object(
  {
    projectId: ProjectId,
    blocks: batch(
      Type.Object({ name: Name, developerId: Type.Optional(DeveloperId) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

const UpdateBody = Type.Object(
  {
    projectId: ProjectId,
    updates: batch(
      Type.Object({ developerId: DeveloperId, name: Type.Optional(Name) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

const DeleteBody = Type.Object(
  { projectId: ProjectId, developerIds: batch(DeveloperId) },
  { additionalProperties: false },
);

const OrderBody = Type.Object(
  {
    projectId: ProjectId,
    blockIds: Type.Optional(Type.Array(DeveloperId, { maxItems: MAX_BATCH })),
    textItemIds: Type.Array(DeveloperId, { maxItems: MAX_BATCH }),
  },
  { additionalProperties: false },
);

export const blocksRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/projectBlocks',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projectBlocks'],
        summary: "List a project's blocks in block order",
        querystring: Type.Object({ projectId: ProjectId }),
        response: withErrors({ 200: Type.Array(Block) }),
      },
    },
    (request) => services.blocks.list(workspaceOf(request), request.query.projectId),
  );

  app.post(
    '/projectBlocks',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projectBlocks'],
        summary: 'Create blocks at the end of a project, all or none',
        description: 'A block without `developerId` gets a slug of its name, unique within the project.',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const { projectId, blocks } = request.body;
      const developerIds = await services.blocks.create(workspaceOf(request), projectId, blocks);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/projectBlocks',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projectBlocks'],
        summary: 'Rename blocks of a project, all or none',
        body: UpdateBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await services.blocks.update(workspaceOf(request), request.body.projectId, request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/projectBlocks',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projectBlocks'],
        summary: 'Delete blocks of a project, all or none',
        description: 'The text items of a deleted block stay in the project, outside any block.',
        body: DeleteBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await services.blocks.remove(workspaceOf(request), request.body.projectId, request.body.developerIds);
      return { success: true as const };
    },
  );

  app.put(
    '/projectOrder',
    {
      config: { auth: 'v2' },
      schema: {
        tags: ['projectBlocks'],
        summary: 'Set the custom order of a project (sort=project_order)',
        description:
          'The listed blocks and text items come first, in the order given; the rest keep their previous order after them. Text items are ordered within their block; items outside blocks come after every block.',
        body: OrderBody,
        response: withErrors({ 200: Success }),
      },
    },
    async (request) => {
      await services.blocks.setOrder(workspaceOf(request), request.body);
      return { success: true as const };
    },
  );
};
