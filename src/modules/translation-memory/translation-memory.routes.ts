import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import { MemoryQuery, MemoryResponse } from './translation-memory.schemas.js';
import type { TranslationMemoryService } from './translation-memory.service.js';

export const translationMemoryRoutes: FastifyPluginAsyncTypebox<{
  translationMemory: TranslationMemoryService;
}> = async (app, { translationMemory }) => {
  app.get(
    '/translationMemory',
    {
      schema: {
        tags: ['translationMemory'],
        summary:
          'Translations the workspace already has of texts like one base text, in a variant or another of its locale',
        description:
          'Give one of `text`, `textItemId` or `componentId` (a record is left out of its own matches). Identical base texts first (score 100), then by trigram similarity; one match per distinct base text and translation. See docs/translation-memory.md.',
        querystring: MemoryQuery,
        response: withErrors({ 200: MemoryResponse }, 404),
      },
      // Cached by the HTTP cache (src/http/cache/index.ts) per workspace revision and URL.
      config: { cache: true },
    },
    (request) => translationMemory.matches(workspaceOf(request), request.query),
  );
};
