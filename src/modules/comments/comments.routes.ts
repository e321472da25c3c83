import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { principalOf, scopeOf, workspaceOf } from '../../http/auth.js';
import { Success, withErrors } from '../../http/schemas.js';
import { bodies, Comment, CommentsPage, CountsQuery, ListQuery, OpenCounts } from './comments.schemas.js';
import type { CommentActor, CommentsService } from './comments.service.js';

/** The writer of a request: its scope, and who they are for the ownership rules. */
function actorOf(request: FastifyRequest): CommentActor {
  const principal = principalOf(request);
  return {
    scope: scopeOf(request),
    userId: principal.userId,
    email: principal.email,
    admin: principal.role === 'admin',
  };
}

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

export const commentsRoutes: FastifyPluginAsyncTypebox<{ comments: CommentsService; limits: Limits }> = async (
  app,
  { comments, limits },
) => {
  const { CreateBody, UpdateBody, ThreadsBody, DeleteBody } = bodies(limits.batchItems);

  app.get(
    '/comments',
    {
      // Not kept by the HTTP cache (src/http/cache/index.ts): `mentions=me` answers per caller,
      // and the cache's ETags are per workspace and URL.
      config: { cache: false },
      schema: {
        tags: ['comments'],
        summary: 'List comments, oldest first, a page at a time',
        description:
          'Filters combine. `textItemId`/`componentId`: the comments on that text; for a text that was deleted, those it had under that developer ID (`recordDeleted: true`). ' +
          '`open=true`: the comments of unresolved threads. `mentions=me`: those that mention the caller. ' +
          'An unknown text, project, variant or thread is a 400 naming the parameter.',
        querystring: ListQuery,
        response: withErrors({ 200: CommentsPage }),
      },
    },
    (request) => {
      const principal = principalOf(request);
      return comments.list({ workspaceId: principal.workspaceId, email: principal.email }, request.query);
    },
  );

  app.get(
    '/comments/counts',
    {
      config: { cache: true },
      schema: {
        tags: ['comments'],
        summary: 'Count the open threads of each text that has any',
        description:
          'Every text item and component with at least one unresolved thread, and how many: the texts that "have open comments". Deleted texts are left out.',
        querystring: CountsQuery,
        response: withErrors({ 200: OpenCounts }),
      },
    },
    (request) => comments.counts(workspaceOf(request), request.query),
  );

  app.get(
    '/comments/:id',
    {
      config: { cache: true },
      schema: {
        tags: ['comments'],
        summary: 'Read one comment',
        params: IdParams,
        response: withErrors({ 200: Comment }, 404),
      },
    },
    (request) => comments.get(workspaceOf(request), request.params.id),
  );

  app.post(
    '/comments',
    {
      schema: {
        tags: ['comments'],
        summary: 'Write comments, all or none',
        description:
          'Each element starts a thread on a text (`textItemId` or `componentId`, optionally on one `variantId` and a `range` of its text) or replies to one (`threadId`). ' +
          "Mentions (`@` and a user's email) are read from the body. Needs the commenter role or higher. Answers the new comments' ids in request order.",
        body: CreateBody,
        response: withErrors({ 201: Type.Object({ ids: Type.Array(Type.String()) }) }, 403, 404, 409),
      },
    },
    async (request, reply) => {
      const ids = await comments.create(actorOf(request), request.body.comments);
      return reply.status(201).send({ ids });
    },
  );

  app.patch(
    '/comments',
    {
      schema: {
        tags: ['comments'],
        summary: 'Edit comments, all or none',
        description:
          "One's own comments; an admin edits anyone's (403 otherwise). Mentions are read again from the new body.",
        body: UpdateBody,
        response: withErrors({ 200: Success }, 403, 404),
      },
    },
    async (request) => {
      await comments.update(actorOf(request), request.body.updates);
      return { success: true as const };
    },
  );

  app.post(
    '/comments/resolve',
    {
      schema: {
        tags: ['comments'],
        summary: 'Resolve threads',
        description:
          'Threads are named by their ids (their first comments). Anyone who may comment may resolve; a resolved thread stays as it is.',
        body: ThreadsBody,
        response: withErrors({ 200: Success }, 403, 404),
      },
    },
    async (request) => {
      await comments.setResolved(actorOf(request), request.body.threadIds, true);
      return { success: true as const };
    },
  );

  app.post(
    '/comments/reopen',
    {
      schema: {
        tags: ['comments'],
        summary: 'Reopen resolved threads',
        body: ThreadsBody,
        response: withErrors({ 200: Success }, 403, 404),
      },
    },
    async (request) => {
      await comments.setResolved(actorOf(request), request.body.threadIds, false);
      return { success: true as const };
    },
  );

  app.delete(
    '/comments',
    {
      schema: {
        tags: ['comments'],
        summary: 'Delete comments, all or none',
        description:
          "One's own comments; an admin deletes anyone's (403 otherwise). Deleting a thread's first comment deletes the whole thread, replies included.",
        body: DeleteBody,
        response: withErrors({ 200: Success }, 403, 404),
      },
    },
    async (request) => {
      await comments.remove(actorOf(request), request.body.ids);
      return { success: true as const };
    },
  );
};
