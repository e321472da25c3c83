import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { principalOf, scopeOf } from '../../http/auth.js';
import { sendContentAddressed } from '../../http/cache/index.js';
import { DeveloperIds, developerIdsBody, Success, withErrors } from '../../http/schemas.js';
import { hasRelease } from '../releases/releases.service.js';
import { IfMatchHeader, parseIfMatch } from '../texts/index.js';
import { ComponentRecord, componentSchemas, ListQuery, PublishBody } from './components.schemas.js';
import type { ComponentsService } from './components.service.js';

export const componentsRoutes: FastifyPluginAsyncTypebox<{ components: ComponentsService; limits: Limits }> = async (
  app,
  { components, limits },
) => {
  const { CreateBody, UpdateBody } = componentSchemas(limits);

  app.get(
    '/components',
    {
      // Wrapped by the HTTP cache (src/http/cache/index.ts): ETag, 304, kept bytes, one rendering per burst.
      // With `release=`, the handler answers the release's bytes under an ETag that hashes them.
      config: { cache: true, ownEtag: hasRelease },
      schema: {
        tags: ['components'],
        summary: 'List components: one record per base text, variant value and plural form',
        description:
          'Ordered by developer ID, base before variants (in variant creation order), the primary record before its plural forms (CLDR order). Plural form records have the id `<developerId>_<form>`.',
        querystring: ListQuery,
        response: withErrors({ 200: Type.Array(ComponentRecord) }),
      },
    },
    async (request, reply) => {
      const { workspaceId, revision } = principalOf(request);
      if (request.query.release !== undefined) {
        return sendContentAddressed(
          request,
          reply,
          await components.releaseListBody(workspaceId, request.query, limits.filterIds),
        );
      }
      const body = await components.listBody(workspaceId, revision, request.query, limits.filterIds);
      // Bytes already written: the response schema only documents them (why: docs/components.md, Performance).
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.post(
    '/components',
    {
      schema: {
        tags: ['components'],
        summary: 'Create components, all or none',
        description:
          'A component without `developerId` gets a slug of its name (or of its text) with `-2`, `-3`... on collision. Returns the developer IDs in request order.',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await components.create(scopeOf(request), request.body);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/components',
    {
      schema: {
        tags: ['components'],
        summary: 'Update components, all or none; only provided fields change',
        description:
          'With `variantId`, text, plurals, status, assignee, notes and characterLimit change that variant’s values (a component lacking the variant gains it); tags, integrated, variables and folderId always apply to the component.',
        headers: IfMatchHeader,
        body: UpdateBody,
        response: withErrors({ 200: Success }, 404, 412),
      },
    },
    async (request) => {
      await components.update(scopeOf(request), request.body, parseIfMatch(request.headers['if-match']));
      return { success: true as const };
    },
  );

  app.delete(
    '/components',
    {
      schema: {
        tags: ['components'],
        summary: 'Delete components, all or none',
        description: 'Linked text item instances keep the component’s text and are detached.',
        body: developerIdsBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await components.remove(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );

  app.post(
    '/components/publish',
    {
      schema: {
        tags: ['components'],
        summary: 'Publish a text item to the library',
        description:
          'The text item becomes the first linked instance of a new component with its developer ID, text, variables, variants, plurals and other fields. `name` defaults to the developer ID; `folderId` to the library root.',
        body: PublishBody,
        response: withErrors({ 201: Type.Object({ developerId: Type.String() }) }, 404, 409),
      },
    },
    async (request, reply) => {
      const developerId = await components.publish(scopeOf(request), request.body);
      return reply.status(201).send({ developerId });
    },
  );
};
