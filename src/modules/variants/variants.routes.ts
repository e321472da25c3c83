import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { DeveloperIds, developerIdsBody, Nullable, Success, withErrors } from '../../http/schemas.js';
import { createBody, updateBody } from './variants.schemas.js';
import type { VariantsService } from './variants.service.js';

export const Variant = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String(),
  description: Type.String({ description: 'Empty string when none' }),
  localeCode: Nullable(Type.String({ description: 'The target locale; null when the variant has none' })),
});

export const variantsRoutes: FastifyPluginAsyncTypebox<{ variants: VariantsService; limits: Limits }> = async (
  app,
  { variants, limits },
) => {
  const CreateBody = createBody(limits.batchItems);
  const UpdateBody = updateBody(limits.batchItems);

  app.get(
    '/variants',
    {
      schema: {
        tags: ['variants'],
        summary: 'List the variants, in creation order',
        response: withErrors({ 200: Type.Array(Variant) }),
      },
    },
    (request) => variants.list(workspaceOf(request)),
  );

  app.post(
    '/variants',
    {
      schema: {
        tags: ['variants'],
        summary: 'Create variants',
        description:
          'A variant without `developerId` gets a slug of its name, with `-2`, `-3`... on collision. `all` and `base` are reserved.',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await variants.create(scopeOf(request), request.body.variants);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/variants',
    {
      schema: {
        tags: ['variants'],
        summary: 'Update variants, all or nothing',
        description: 'Developer IDs and names may be swapped between variants in one request.',
        body: UpdateBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await variants.update(scopeOf(request), request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/variants',
    {
      schema: {
        tags: ['variants'],
        summary: 'Delete variants with their text everywhere',
        description: 'Style guides scoped to a deleted variant lose the scope.',
        body: developerIdsBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await variants.remove(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
