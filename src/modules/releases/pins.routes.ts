import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/auth.js';
import { Nullable, withErrors } from '../../http/schemas.js';
import type { PinsService } from './pins.service.js';

const Pin = Type.Object({
  projectId: Type.String({ description: 'Developer ID of the project' }),
  release: Type.String({ description: 'Name of the release it is pinned to' }),
  pinnedBy: Type.String(),
  pinnedAt: Type.String(),
});
const Pins = Type.Object({ pins: Type.Array(Pin) });

/** `/v2/releasePins`: which release each project's pullers get (docs/releases.md#pins). */
export const pinsRoutes: FastifyPluginAsyncTypebox<{ pins: PinsService }> = async (app, { pins }) => {
  app.get(
    '/releasePins',
    {
      // Pins change outside the content revision: not kept by the HTTP cache.
      config: { cache: false },
      schema: {
        tags: ['releases'],
        summary: "List the projects pinned to a release: what an API key's reads of them answer",
        response: withErrors({ 200: Pins }),
      },
    },
    async (request) => ({ pins: await pins.list(workspaceOf(request)) }),
  );

  app.put(
    '/releasePins',
    {
      schema: {
        tags: ['releases'],
        summary: 'Pin a project to a release, or unpin it (admins)',
        description:
          "From then on, the v2 text items reads and exports an API key makes of the project without `release=` answer the release (header `X-Copydesk-Release`). A signed-in person's reads, and the legacy API's, keep reading the current text. `release: null` unpins. See docs/releases.md.",
        body: Type.Object(
          {
            projectId: Type.String({ minLength: 1, maxLength: 200 }),
            release: Nullable(Type.String({ minLength: 1, maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: Pins }, 403, 404),
      },
    },
    async (request) => {
      const { workspaceId, email } = principalOf(request);
      return { pins: await pins.set({ workspaceId, email }, request.body) };
    },
  );
};
