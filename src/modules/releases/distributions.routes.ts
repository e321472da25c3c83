import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { FORMATS } from '../../formats/types.js';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { sendContentAddressed } from '../../http/cache/index.js';
import { Nullable, Success, withErrors } from '../../http/schemas.js';
import type { DistributionsService } from './distributions.service.js';

const Distribution = Type.Object({
  name: Type.String(),
  projects: Type.Array(Type.String()),
  formats: Type.Array(Type.String()),
  release: Nullable(Type.String({ description: 'The release `latest` serves; null until one is published' })),
  publishedAt: Nullable(Type.String()),
  revoked: Type.Boolean(),
  createdAt: Type.String(),
});

/** A distribution with its token: answered once, when the token is made. */
const WithToken = Type.Object({
  ...Distribution.properties,
  token: Type.String({ description: 'The read-only delivery token (`cdd_...`): in this answer only' }),
});

const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });

/** `/v2/distributions`: the admins' side of delivery (docs/releases.md#delivery). */
export const distributionsRoutes: FastifyPluginAsyncTypebox<{
  distributions: DistributionsService;
  limits: Limits;
}> = async (app, { distributions, limits }) => {
  app.get(
    '/distributions',
    {
      config: { cache: false },
      schema: {
        tags: ['releases'],
        summary: 'List distributions (admins)',
        response: withErrors({ 200: Type.Object({ distributions: Type.Array(Distribution) }) }, 403),
      },
    },
    async (request) => ({ distributions: await distributions.list(workspaceOf(request)) }),
  );

  app.post(
    '/distributions',
    {
      schema: {
        tags: ['releases'],
        summary: 'Create a read-only delivery token for some projects and formats (admins)',
        description:
          'The token is in this answer only; the server keeps its SHA-256. `projects`: project developer IDs, `_library` for the components. Recorded in the history (kind `distribution`, action `created`). See docs/releases.md#delivery.',
        body: Type.Object(
          {
            name: Type.String({ maxLength: 64 }),
            projects: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: limits.filterIds }),
            formats: Type.Array(Type.Enum([...FORMATS]), { maxItems: FORMATS.length }),
          },
          { additionalProperties: false },
        ),
        response: withErrors({ 201: WithToken }, 403, 409),
      },
    },
    async (request, reply) => reply.status(201).send(await distributions.create(scopeOf(request), request.body)),
  );

  app.post(
    '/distributions/:name/publish',
    {
      schema: {
        tags: ['releases'],
        summary: 'Publish a release to a distribution: `latest` serves it from now on (admins)',
        description: 'Recorded in the history; sends the webhook event `release.published`.',
        params: NameParams,
        body: Type.Object({ release: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
        response: withErrors({ 200: Distribution }, 403, 404, 409),
      },
    },
    (request) => distributions.publish(scopeOf(request), request.params.name, request.body.release),
  );

  app.post(
    '/distributions/:name/token',
    {
      schema: {
        tags: ['releases'],
        summary: "Replace a distribution's token: the old one stops at once (admins)",
        description:
          'The new token is in this answer only, as when the distribution was made; its projects, formats and `latest` stay. Recorded in the history (kind `distribution`, action `updated`, the tokens named by the first characters of their SHA-256). A revoked distribution is a 404. See docs/releases.md#delivery.',
        params: NameParams,
        response: withErrors({ 200: WithToken }, 403, 404),
      },
    },
    (request) => distributions.reissue(scopeOf(request), request.params.name),
  );

  app.delete(
    '/distributions/:name',
    {
      schema: {
        tags: ['releases'],
        summary: 'Revoke a distribution: its token stops at once (admins)',
        description:
          'Recorded in the history (kind `distribution`, action `deleted`); revoking one already revoked writes nothing.',
        params: NameParams,
        response: withErrors({ 200: Success }, 403, 404),
      },
    },
    async (request) => {
      await distributions.revoke(scopeOf(request), request.params.name);
      return { success: true as const };
    },
  );
};

/** Pinned files never change: any cache may keep them for a year. */
const PINNED = 'public, max-age=31536000, immutable';
/** `latest` moves on a publish: kept briefly, then revalidated with the ETag (a 304 when unchanged). */
const LATEST = 'public, max-age=30, must-revalidate';

const Segment = Type.String({ minLength: 1, maxLength: 200 });

/**
 * `/delivery/...`: the public side, for apps. No key: the token in the path is the credential,
 * and it reads nothing but its own projects' and formats' files. Every answer allows any origin
 * (the token, not a cookie, is what authorises), and is compressed for clients that accept it.
 */
export const deliveryRoutes: FastifyPluginAsyncTypebox<{ distributions: DistributionsService }> = async (
  app,
  { distributions },
) => {
  app.addHook('onRequest', async (_request, reply) => {
    reply
      .header('access-control-allow-origin', '*')
      .header('access-control-expose-headers', 'ETag, Content-Length')
      .header('timing-allow-origin', '*');
  });
  app.options('/delivery/*', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('access-control-allow-methods', 'GET, HEAD')
      .header('access-control-allow-headers', 'If-None-Match, Cache-Control')
      .header('access-control-max-age', '86400')
      .code(204)
      .send(),
  );
  const cacheControl = (release: string) => (release === 'latest' ? LATEST : PINNED);

  app.get(
    '/delivery/:token/:release/manifest.json',
    {
      config: { cache: false },
      schema: {
        tags: ['delivery'],
        summary: 'Every file the token can fetch of a release (or `latest`), with pinned URLs and hashes',
        // No key: the distribution token in the path is the credential.
        security: [],
        params: Type.Object({ token: Segment, release: Segment }),
      },
    },
    async (request, reply) => {
      const { token, release } = request.params;
      const manifest = await distributions.manifest(token, release);
      return sendContentAddressed(request, reply, manifest, cacheControl(release));
    },
  );

  app.get(
    '/delivery/:token/:release/:variant/:format/:project',
    {
      config: { cache: false },
      schema: {
        tags: ['delivery'],
        summary: "One project's file (`_library`: the components) of a release (or `latest`), variant and format",
        security: [],
        description:
          '`variant`: `base` (or the base language code) or a variant developer ID; `format` as for the exports. Pinned releases are `immutable`; `latest` is kept 30 s and revalidated by ETag.',
        params: Type.Object({ token: Segment, release: Segment, variant: Segment, format: Segment, project: Segment }),
      },
    },
    async (request, reply) => {
      const file = await distributions.deliver(request.params);
      return sendContentAddressed(request, reply, file, cacheControl(request.params.release));
    },
  );
};
