import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Limits } from '../../config.js';
import { principalOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import { ComponentsExportQuery, ExportFile, TextItemsExportQuery } from './exports.schemas.js';
import type { ExportKind, ExportsService } from './exports.service.js';

export const exportsRoutes: FastifyPluginAsyncTypebox<{ exports: ExportsService; limits: Limits }> = async (
  app,
  { exports, limits },
) => {
  const route = (kind: ExportKind, querystring: typeof TextItemsExportQuery | typeof ComponentsExportQuery) =>
    app.get(
      `/${kind}/export`,
      {
        // Wrapped by the HTTP cache (src/http/cache/index.ts): ETag, 304, kept bytes, one rendering per burst.
        config: { cache: true },
        schema: {
          tags: [kind],
          summary: `Export ${kind === 'textItems' ? 'text items' : 'components'} as a localisation file`,
          description: 'See docs/exports.md and docs/formats/ for each format.',
          querystring,
          produces: ['application/json', 'text/plain', 'text/xml'],
          response: withErrors({ 200: ExportFile }),
        },
      },
      async (request, reply) => {
        const { workspaceId, revision } = principalOf(request);
        const file = await exports.exportTexts(kind, workspaceId, revision, request.query, limits.filterIds);
        // Bytes or a stream of them: the response cache compresses and keeps either as it is sent.
        return reply.type(file.contentType).send(file.body as never);
      },
    );

  route('textItems', TextItemsExportQuery);
  route('components', ComponentsExportQuery);
};
