import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import { ProgressQuery } from './translation-state.schemas.js';
import type { TranslationStateService } from './translation-state.service.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const VariantProgress = Type.Object({
  variantId: Type.String({ description: 'Developer ID of the variant' }),
  total: Count('Texts counted (each variant counts the same texts)'),
  missing: Count('Texts with no value in the variant'),
  outdated: Count('Values whose base text or plural forms changed after the value’s text was last written'),
  upToDate: Count('Values written against the base text as it is now'),
});

export const translationStateRoutes: FastifyPluginAsyncTypebox<{ translationState: TranslationStateService }> = async (
  app,
  { translationState },
) => {
  app.get(
    '/translationProgress',
    {
      schema: {
        tags: ['translationState'],
        summary: 'How many texts each variant lacks, has outdated and has up to date',
        description:
          'With `projectId`: the text items of that project (or base). With `folderId`: the components of that folder and its subfolders (`root`: the whole library). With neither: every component and every text item of the workspace. One entry per variant of the workspace, in variant order. Linked instances count with their component’s variant values.',
        querystring: ProgressQuery,
        response: withErrors({ 200: Type.Array(VariantProgress) }),
      },
    },
    (request) => {
      const { workspaceId, revision } = principalOf(request);
      return translationState.progress(workspaceId, revision, request.query);
    },
  );
};
