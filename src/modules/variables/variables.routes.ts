import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { Success, withErrors } from '../../http/schemas.js';
import { bodies, DATA_DESCRIPTION, NAME_RULE, VariableType } from './variables.schemas.js';
import type { VariablesService } from './variables.service.js';

export const Variable = Type.Object({
  id: Type.String({ description: 'Developer ID: the same as the name' }),
  name: Type.String(),
  type: VariableType,
  // Not a union of the shapes: the serializer would write a map through the first branch that
  // matches it (a map with keys `text` and `url` as a hyperlink) and drop its other keys.
  data: Type.Unknown({ description: DATA_DESCRIPTION }),
});

export const variablesRoutes: FastifyPluginAsyncTypebox<{ variables: VariablesService; limits: Limits }> = async (
  app,
  { variables, limits },
) => {
  const { CreateBody, UpdateBody, DeleteBody } = bodies(limits.batchItems);
  app.get(
    '/variables',
    {
      schema: {
        tags: ['variables'],
        summary: 'List the variables in creation order',
        response: withErrors({ 200: Type.Array(Variable) }),
      },
    },
    (request) => variables.list(workspaceOf(request)),
  );

  app.post(
    '/variables',
    {
      schema: {
        tags: ['variables'],
        summary: 'Create variables, all or none',
        description: `A variable's name is its developer ID (${NAME_RULE}). A name that already exists is a 409.`,
        body: CreateBody,
        response: withErrors({ 201: Type.Object({ names: Type.Array(Type.String()) }) }, 409),
      },
    },
    async (request, reply) => {
      const names = await variables.create(scopeOf(request), request.body.variables);
      return reply.status(201).send({ names });
    },
  );

  app.patch(
    '/variables',
    {
      schema: {
        tags: ['variables'],
        summary: "Replace variables' data, all or none",
        description: 'The type of a variable never changes; the new data must fit it.',
        body: UpdateBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await variables.update(scopeOf(request), request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/variables',
    {
      schema: {
        tags: ['variables'],
        summary: 'Delete variables, all or none',
        description: 'A variable that a component or text item still uses cannot be deleted (400).',
        body: DeleteBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await variables.remove(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
