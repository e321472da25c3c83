import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/auth.js';
import { Nullable, withErrors } from '../../http/schemas.js';
import type { AccountsService } from './accounts.service.js';

const Key = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, for recognising it; never enough to use it' }),
  email: Type.String({ description: 'The user the key acts as, with their role' }),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String()),
  revokedAt: Nullable(Type.String()),
});

/**
 * API keys from the API itself. Everyone manages their own keys (a key acts with its user's role,
 * so a key never gives more than its user has); an admin sees and revokes everyone's.
 */
export const keysRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountsService }> = async (app, { accounts }) => {
  app.get(
    '/keys',
    {
      // Keys are not content: creating one does not advance the revision the cache is keyed by.
      config: { cache: false },
      schema: {
        tags: ['keys'],
        summary: 'Your API keys (an admin: every key of the workspace)',
        response: withErrors({ 200: Type.Array(Key) }),
      },
    },
    (request) => {
      const principal = principalOf(request);
      return accounts.listKeys(principal.workspaceId, principal.role === 'admin' ? undefined : principal.email);
    },
  );

  app.post(
    '/keys',
    {
      config: { cache: false },
      schema: {
        tags: ['keys'],
        summary: 'Create an API key acting as you; the key is in this answer only',
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: withErrors({ 201: Type.Object({ id: Type.String(), key: Type.String() }) }),
      },
    },
    async (request, reply) => {
      const { workspaceId, email } = principalOf(request);
      const created = await accounts.createKey({ workspaceId, email, name: request.body.name });
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/keys/:keyId',
    {
      config: { cache: false },
      schema: {
        tags: ['keys'],
        summary: 'Revoke a key at once (yours; an admin: any of the workspace)',
        params: Type.Object({ keyId: Type.String({ maxLength: 100 }) }),
        response: withErrors({ 204: Type.Null() }, 403, 404),
      },
    },
    async (request, reply) => {
      await accounts.revokeKeyOf(principalOf(request), request.params.keyId);
      return reply.status(204).send(null);
    },
  );
};
