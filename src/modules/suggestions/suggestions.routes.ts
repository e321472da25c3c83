import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { principalOf, scopeOf, workspaceOf } from '../../http/auth.js';
import { Success, withErrors } from '../../http/schemas.js';
import {
  bodies,
  CountsQuery,
  ListQuery,
  PendingCounts,
  SuggestionDetail,
  SuggestionsPage,
} from './suggestions.schemas.js';
import type { SuggestionActor, SuggestionsService } from './suggestions.service.js';

function actorOf(request: FastifyRequest): SuggestionActor {
  const principal = principalOf(request);
  return { scope: scopeOf(request), userId: principal.userId, email: principal.email };
}

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

export const suggestionsRoutes: FastifyPluginAsyncTypebox<{ suggestions: SuggestionsService; limits: Limits }> = async (
  app,
  { suggestions, limits },
) => {
  const { CreateBody, AcceptBody, RejectBody, WithdrawBody } = bodies(limits);

  app.get(
    '/suggestions',
    {
      // Kept by the HTTP cache (src/http/cache/index.ts): the same for every caller of a workspace.
      config: { cache: true },
      schema: {
        tags: ['suggestions'],
        summary: 'List suggestions, oldest first, a page at a time',
        description:
          'Filters combine. `textItemId`/`componentId`: the suggestions on that text; for a text that was deleted, those it had under that developer ID. ' +
          'An unknown text or project is a 400 naming the parameter.',
        querystring: ListQuery,
        response: withErrors({ 200: SuggestionsPage }),
      },
    },
    (request) => suggestions.list(workspaceOf(request), request.query),
  );

  app.get(
    '/suggestions/counts',
    {
      config: { cache: true },
      schema: {
        tags: ['suggestions'],
        summary: 'Count the undecided suggestions of each text that has any',
        description:
          'Every text item and component with at least one open or stale suggestion, and how many: the badges of a list. Deleted texts are left out. An unknown project is a 400 naming `projectId`.',
        querystring: CountsQuery,
        response: withErrors({ 200: PendingCounts }),
      },
    },
    (request) => suggestions.counts(workspaceOf(request), request.query),
  );

  app.get(
    '/suggestions/:id',
    {
      config: { cache: true },
      schema: {
        tags: ['suggestions'],
        summary: 'Read one suggestion, with its word diff and the text as it is now',
        description:
          '`diff`: the proposed content against the content it was suggested on (plain text, word by word). When the text changed since (`baseChanged`), `currentDiff` is that content against the current one.',
        params: IdParams,
        response: withErrors({ 200: SuggestionDetail }, 404),
      },
    },
    (request) => suggestions.get(workspaceOf(request), request.params.id),
  );

  app.post(
    '/suggestions',
    {
      schema: {
        tags: ['suggestions'],
        summary: 'Suggest changes to texts, all or none',
        description:
          'Each element proposes a new `text` and/or `plurals` for a text item (`textItemId`) or component (`componentId`), or for one variant of it (`variantId`), without applying it. ' +
          "The proposal is checked as a PATCH of it would be (limits, plural forms); a 400 names the element's field. Needs the commenter role or higher. Answers the new suggestions' ids in request order.",
        body: CreateBody,
        response: withErrors({ 201: Type.Object({ ids: Type.Array(Type.String()) }) }, 403, 404),
      },
    },
    async (request, reply) => {
      const ids = await suggestions.create(actorOf(request), request.body.suggestions);
      return reply.status(201).send({ ids });
    },
  );

  app.post(
    '/suggestions/accept',
    {
      schema: {
        tags: ['suggestions'],
        summary: 'Accept suggestions: apply them to their texts, all or none',
        description:
          'Each is applied as a PATCH of its text by the caller (the change log, webhooks and every rule of a PATCH apply), with the ETag it was suggested on as If-Match. If a text changed since, nothing is applied, those suggestions are marked `stale` and the answer is a 409; `force: true` applies them over the current text. Needs the editor role.',
        body: AcceptBody,
        response: withErrors({ 200: Success }, 403, 404, 409),
      },
    },
    async (request) => {
      await suggestions.accept(actorOf(request), request.body.ids, request.body.force ?? false);
      return { success: true as const };
    },
  );

  app.post(
    '/suggestions/reject',
    {
      schema: {
        tags: ['suggestions'],
        summary: 'Reject suggestions, with an optional note, all or none',
        description: 'Needs the editor role. A decided suggestion is a 409.',
        body: RejectBody,
        response: withErrors({ 200: Success }, 403, 404, 409),
      },
    },
    async (request) => {
      const { ids, note } = request.body;
      await suggestions.decide(actorOf(request), { ids, action: 'rejected', ...(note !== undefined && { note }) });
      return { success: true as const };
    },
  );

  app.post(
    '/suggestions/withdraw',
    {
      schema: {
        tags: ['suggestions'],
        summary: "Withdraw one's own suggestions, all or none",
        description: "Only a suggestion's author withdraws it (403 otherwise). A decided suggestion is a 409.",
        body: WithdrawBody,
        response: withErrors({ 200: Success }, 403, 404, 409),
      },
    },
    async (request) => {
      await suggestions.decide(actorOf(request), { ids: request.body.ids, action: 'withdrawn' });
      return { success: true as const };
    },
  );
};
