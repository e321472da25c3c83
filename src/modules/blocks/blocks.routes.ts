import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { DeveloperIds, Success, withErrors } from '../../http/schemas.js';
import { bodies, ProjectId } from './blocks.schemas.js';
import type { BlocksService } from './blocks.service.js';

export const Block = Type.Object({
  id: Type.String({ description: 'Developer ID, unique within the project' }),
  name: Type.String(),
});

export const blocksRoutes: FastifyPluginAsyncTypebox<{ blocks: BlocksService; limits: Limits }> = async (
  app,
  { blocks, limits },
) => {
  const { CreateBody, UpdateBody, DeleteBody, OrderBody } = bodies(limits.batchItems);
  app.get(
    '/projectBlocks',
    {
      schema: {
        tags: ['projectBlocks'],
        summary: "List a project's blocks in block order",
        querystring: Type.Object({ projectId: ProjectId }),
        response: withErrors({ 200: Type.Array(Block) }),
      },
    },
    (request) => blocks.list(workspaceOf(request), request.query.projectId),
  );

  app.post(
    '/projectBlocks',
    {
      schema: {
        tags: ['projectBlocks'],
        summary: 'Create blocks at the end of a project, all or none',
        description: 'A block without `developerId` gets a slug of its name, unique within the project.',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const { projectId } = request.body;
      const developerIds = await blocks.create(scopeOf(request), projectId, request.body.blocks);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/projectBlocks',
    {
      schema: {
        tags: ['projectBlocks'],
        summary: 'Rename blocks of a project or give them new developer IDs, all or none',
        body: UpdateBody,
        response: withErrors({ 200: Success }, 404, 409),
      },
    },
    async (request) => {
      await blocks.update(scopeOf(request), request.body.projectId, request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/projectBlocks',
    {
      schema: {
        tags: ['projectBlocks'],
        summary: 'Delete blocks of a project, all or none',
        description: 'The text items of a deleted block stay in the project, outside any block.',
        body: DeleteBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await blocks.remove(scopeOf(request), request.body.projectId, request.body.developerIds);
      return { success: true as const };
    },
  );

  app.put(
    '/projectOrder',
    {
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
      await blocks.setOrder(scopeOf(request), request.body);
      return { success: true as const };
    },
  );
};
