import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Limits } from '../../config.js';
import { principalOf } from '../../http/auth.js';
import { Success, withErrors } from '../../http/schemas.js';
import {
  FollowsPage,
  FollowsQuery,
  followsBody,
  ListQuery,
  NotificationsPage,
  ReadResult,
  readBody,
  UnreadCount,
} from './notifications.schemas.js';
import { type NotificationsService, type Owner, ownerOf } from './notifications.service.js';

/** The caller's user: notifications and follows are per user, found as `mentions=me` finds them. */
const owner = (request: FastifyRequest): Owner => ownerOf(principalOf(request));

export const notificationsRoutes: FastifyPluginAsyncTypebox<{
  notifications: NotificationsService;
  limits: Limits;
}> = async (app, { notifications, limits }) => {
  const ReadBody = readBody(limits.batchItems);
  const FollowsBody = followsBody(limits.batchItems);

  // Not kept by the HTTP cache (src/http/cache/index.ts): every answer here is the caller's own,
  // and the cache's ETags are per workspace and URL.
  app.get(
    '/notifications',
    {
      config: { cache: false },
      schema: {
        tags: ['notifications'],
        summary: "List the caller's notifications, newest first, a page at a time",
        description:
          "A notification tells its user of a mention, a reply in a thread they are in, a text assigned to them, a suggestion on a text assigned to them, or a status change on a text they follow. `unread=true`: only unread ones. `link` is the app's path to the text and thread.",
        querystring: ListQuery,
        response: withErrors({ 200: NotificationsPage }, 403),
      },
    },
    (request) => notifications.list(owner(request), request.query),
  );

  app.get(
    '/notifications/unread-count',
    {
      config: { cache: false },
      schema: {
        tags: ['notifications'],
        summary: "Count the caller's unread notifications",
        response: withErrors({ 200: UnreadCount }, 403),
      },
    },
    (request) => notifications.unreadCount(owner(request)),
  );

  app.post(
    '/notifications/read',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark notifications read',
        description:
          '`{ "ids": [...] }` marks those (each the caller\'s, a 404 naming it otherwise), `{ "all": true }` every one. Any role may; it is the caller\'s own state, not a change of the workspace (no revision, no history).',
        body: ReadBody,
        response: withErrors({ 200: ReadResult }, 403, 404),
      },
    },
    (request) => notifications.markRead(owner(request), request.body),
  );

  app.get(
    '/follows',
    {
      config: { cache: false },
      schema: {
        tags: ['notifications'],
        summary: 'List the texts the caller follows',
        description:
          'The caller is told of the status changes of the texts they follow. Who creates a text or is assigned it follows it. With `textItemId` or `componentId`: that text only (an empty list: not followed).',
        querystring: FollowsQuery,
        response: withErrors({ 200: FollowsPage }, 403),
      },
    },
    (request) => notifications.listFollows(owner(request), request.query),
  );

  app.put(
    '/follows',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Follow texts, all or none',
        description:
          'Each element names a text item (`textItemId`) or a component (`componentId`). Following a followed text changes nothing. Any role may.',
        body: FollowsBody,
        response: withErrors({ 200: Success }, 403, 404),
      },
    },
    async (request) => {
      await notifications.follow(owner(request), request.body.follows);
      return { success: true as const };
    },
  );

  app.delete(
    '/follows',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Stop following texts, all or none',
        description:
          'The same body as PUT. A text not followed is no error. An assignment later makes its assignee follow again.',
        body: FollowsBody,
        response: withErrors({ 200: Success }, 403, 404),
      },
    },
    async (request) => {
      await notifications.unfollow(owner(request), request.body.follows);
      return { success: true as const };
    },
  );
};
