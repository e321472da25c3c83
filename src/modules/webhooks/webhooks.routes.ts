import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { DeveloperIds, developerIdsBody, Nullable, Success, withErrors } from '../../http/schemas.js';
import type { WebhooksModule } from './index.js';
import {
  createBody,
  DeliveriesQuery,
  Delivery,
  redeliverBody,
  SigningKeyBody,
  SigningKeyStatus,
  updateBody,
  Webhook,
} from './webhooks.schemas.js';

export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksModule; limits: Limits }> = async (
  app,
  { webhooks, limits },
) => {
  const { resource, deliveries } = webhooks;
  const tags = ['webhooks'];

  app.get(
    '/webhooks',
    {
      // A webhook the worker disabled changes without a write to the workspace: never cached.
      config: { cache: false },
      schema: { tags, summary: 'List the webhooks', response: withErrors({ 200: Type.Array(Webhook) }) },
    },
    (request) => resource.list(workspaceOf(request)),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Create webhooks, all or nothing',
        description:
          'Each URL first gets a signed `webhook.test` delivery; anything but a 2xx within 10 s is a 400 saying what it answered. ' +
          'The workspace signing key must be set first.',
        body: createBody(limits.batchItems),
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await resource.create(scopeOf(request), request.body.webhooks);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Update webhooks, all or nothing',
        description:
          'A new `url` gets a signed test delivery first. Enabling a disabled webhook clears its `disabledReason`.',
        body: updateBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await resource.update(scopeOf(request), request.body.updates);
      return { success: true as const };
    },
  );

  app.delete(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Delete webhooks with their deliveries',
        body: developerIdsBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await resource.remove(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );

  app.get(
    '/webhooks/signingKey',
    {
      config: { cache: false },
      schema: {
        tags,
        summary: 'Whether the signing key is set, and its last four characters',
        response: withErrors({ 200: SigningKeyStatus }),
      },
    },
    (request) => resource.signingKeyStatus(workspaceOf(request)),
  );

  app.put(
    '/webhooks/signingKey',
    {
      schema: {
        tags,
        summary: 'Set or rotate the workspace signing key',
        description:
          'At least 32 characters. Every delivery is signed with it (`x-ditto-signature`). Stored encrypted when the server has `COPYDESK_SECRET`.',
        body: SigningKeyBody,
        response: withErrors({ 200: Success }),
      },
    },
    async (request) => {
      await resource.setSigningKey(scopeOf(request), request.body.signingKey);
      return { success: true as const };
    },
  );

  app.get(
    '/webhooks/deliveries',
    {
      // The log moves without a write to the workspace: never answered from the cache.
      config: { cache: false },
      schema: {
        tags,
        summary: 'Every delivery attempt, newest first',
        querystring: DeliveriesQuery,
        response: withErrors({
          200: Type.Object({ deliveries: Type.Array(Delivery), nextCursor: Nullable(Type.String()) }),
        }),
      },
    },
    (request) => deliveries.list(workspaceOf(request), request.query),
  );

  app.post(
    '/webhooks/deliveries/redeliver',
    {
      schema: {
        tags,
        summary: 'Queue a new attempt of deliveries, whatever their state',
        body: redeliverBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await deliveries.redeliver(workspaceOf(request), request.body.ids);
      return { success: true as const };
    },
  );
};
