import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { workspaceOf } from '../../http/auth.js';
import { Nullable, withErrors } from '../../http/schemas.js';
import type { SearchService } from './search.service.js';

const Result = Type.Object({
  kind: Type.Union([Type.Literal('textItem'), Type.Literal('component')]),
  developerId: Type.String(),
  name: Nullable(Type.String({ description: 'Components only' })),
  text: Type.String({ description: 'The base text' }),
  projectId: Nullable(Type.String({ description: 'Text items: the project (or base) that holds it' })),
  folderId: Nullable(Type.String({ description: 'Components: the folder, null at the library root' })),
});

export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (app, { search }) => {
  app.get(
    '/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Find text items and components by text, developer ID, name, notes and tags, in every variant',
        description:
          'Every word of `q` must begin a word of the text (`chec but` finds `checkout-button`), whatever the case. Best matches first.',
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 200, description: 'The words to look for' }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
        }),
        response: withErrors({ 200: Type.Object({ results: Type.Array(Result) }) }),
      },
    },
    (request) => search.search(workspaceOf(request), request.query.q, request.query.limit ?? 50),
  );
};
