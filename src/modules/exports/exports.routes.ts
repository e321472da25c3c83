import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { FORMATS } from '../../formats/types.js';
import { principalOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import { RichTextQuery } from '../texts/index.js';
import type { ExportKind, ExportsService } from './exports.service.js';

const VARIANT =
  'Developer ID of the variant to export (`base` or none: base text). The file holds the texts that have a value of it, unless `fallback=base`';

const common = {
  format: Type.Enum([...FORMATS], { description: 'The file format' }),
  richText: RichTextQuery,
  variantId: Type.Optional(Type.String({ description: VARIANT })),
  variant: Type.Optional(Type.String({ description: 'Alias of `variantId`' })),
  variableOrder: Type.Optional(
    Type.Enum(['default', 'alphabetical'], {
      description:
        'Numbering of positional variables (ios-strings, ios-stringsdict, android): creation order or by name',
    }),
  ),
  fallback: Type.Optional(
    Type.Enum(['base'], {
      description:
        'With a variant: `base` fills the texts that have no value of the variant with their base text (by default they are left out)',
    }),
  ),
  excludeVariantMetadata: Type.Optional(
    Type.Boolean({
      description:
        'Leave `__variant-name` and `__variant-description` (arb: `@@x-variant-*`) out of JSON variant exports; the comments of the other formats stay',
    }),
  ),
  includeVariableSummary: Type.Optional(
    Type.Boolean({ description: 'Add `__variables_used` to json_i18next and json_vue_i18n exports' }),
  ),
};

const TextItemsExportQuery = Type.Object({
  ...common,
  filter: Type.Optional(
    Type.String({
      description:
        'URL-encoded JSON: `projects`, `bases`, `statuses`, `tags`, `assignee`, `integrated` as for GET /textItems (no `variants`: use `variantId`). No `projects` and no `bases`: every project and no base items',
    }),
  ),
  sort: Type.Optional(Type.Enum(['id', 'project_order'], { description: 'As for GET /textItems' })),
});

const ComponentsExportQuery = Type.Object({
  ...common,
  filter: Type.Optional(
    Type.String({
      description:
        'URL-encoded JSON: `folders`, `statuses`, `tags`, `assignee`, `integrated` as for GET /components (no `variants`: use `variantId`)',
    }),
  ),
});

const File = Type.Unknown({
  description:
    'The file: a JSON object (json_icu, json_i18next, json_vue_i18n, arb), `.strings` text (ios-strings) or XML (ios-stringsdict, android)',
});

export const exportsRoutes: FastifyPluginAsyncTypebox<{ exports: ExportsService; limits: Limits }> = async (
  app,
  { exports, limits },
) => {
  const route = (kind: ExportKind, querystring: typeof TextItemsExportQuery | typeof ComponentsExportQuery) =>
    app.get(
      `/${kind}/export`,
      {
        schema: {
          tags: [kind],
          summary: `Export ${kind === 'textItems' ? 'text items' : 'components'} as a localisation file`,
          description: 'See docs/exports.md and docs/formats/ for each format.',
          querystring,
          produces: ['application/json', 'text/plain', 'text/xml'],
          response: withErrors({ 200: File }),
        },
      },
      async (request, reply) => {
        const { workspaceId, revision } = principalOf(request);
        const query = request.query as Parameters<typeof exports.exportTexts>[3];
        const file = await exports.exportTexts(kind, workspaceId, revision, query, limits.filterIds);
        // Bytes or a stream of them: the response cache compresses and keeps either as it is sent.
        return reply.type(file.contentType).send(file.body as never);
      },
    );

  route('textItems', TextItemsExportQuery);
  route('components', ComponentsExportQuery);
};
