import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { principalOf } from '../../http/auth.js';
import { sendContentAddressed } from '../../http/cache/index.js';
import { withErrors } from '../../http/schemas.js';
import { type PinsService, pinnedRelease } from '../releases/pins.service.js';
import { hasRelease, type ReleasesService } from '../releases/releases.service.js';
import {
  ComponentsExportQuery,
  type ExportKind,
  type ExportsService,
  TextItemsExportQuery,
} from './exports.service.js';

/** The 200: the file, whose content type the format says (the documentation lists each). */
const ExportFile = Type.Unknown({
  description:
    'The file: a JSON object (json_icu, json_i18next, json_vue_i18n, arb), `.strings` text (ios-strings) or XML (ios-stringsdict, android)',
});

export const exportsRoutes: FastifyPluginAsyncTypebox<{
  exports: ExportsService;
  releases: Pick<ReleasesService, 'exportFile'>;
  pins: Pick<PinsService, 'forRead'>;
  limits: Limits;
}> = async (app, { exports, releases, pins, limits }) => {
  const route = (kind: ExportKind, querystring: typeof TextItemsExportQuery | typeof ComponentsExportQuery) =>
    app.get(
      `/${kind}/export`,
      {
        // Wrapped by the HTTP cache (src/http/cache/index.ts): ETag, 304, kept bytes, one rendering per burst.
        // With `release=`, the handler answers the release's bytes under an ETag that hashes them.
        config: { cache: true, ownEtag: hasRelease },
        // An API key's export of pinned projects exports their release (docs/releases.md#pins).
        ...(kind === 'textItems' && { preHandler: pinnedRelease(pins) }),
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
        const { workspaceId } = principalOf(request);
        const { release } = request.query;
        if (release !== undefined) {
          const query = { kind, query: request.query, maxFilterIds: limits.filterIds };
          const file = await releases.exportFile(workspaceId, release, query);
          return sendContentAddressed(request, reply, file);
        }
        const file = await exports.exportTexts(kind, principalOf(request).workspaceId, request.query, limits.filterIds);
        // Bytes or a stream of them: the response cache compresses and keeps either as it is sent.
        return reply.type(file.contentType).send(file.body as never);
      },
    );

  route('textItems', TextItemsExportQuery);
  route('components', ComponentsExportQuery);
};
