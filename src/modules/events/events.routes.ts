import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import { EventsQuery, PresenceBody, PresenceLeaveBody, PresenceList } from './events.schemas.js';
import { type EventsService, presenceRecord } from './events.service.js';

const STREAM_DESCRIPTION = [
  'Server-sent events (`text/event-stream`) of the workspace, for as long as the connection stays open.',
  '',
  '- `change`: one write of the change log, its `id` the workspace revision it made; `data` is',
  '  `{ revision, at, actor, changes, truncated? }`, the changes as `GET /history` shows them',
  '  (at most 200 per event; `truncated: true` says there were more: read what you show again).',
  '- `presence`: `{ presence: [...] }`, everyone who has a text open, whenever that changes.',
  '- `ready`: `{ revision }` once the stream is set up (after any replay was queued).',
  '- `reset`: `{ revision, reason }` when `Last-Event-ID` cannot be resumed from (too old, or not',
  '  of this workspace): read everything again; the stream goes on from `revision`.',
  '',
  'Resume after a dropped connection with the `Last-Event-ID` header (browsers send it by',
  'themselves), or `?lastEventId=`: the writes after it come first, none missing, none twice.',
  'A comment line every 15 s keeps idle connections alive. See docs/events.md.',
].join('\n');

/** Whose streams count together against the limit: a key, or a person's sessions. */
const ownerOf = (principal: { keyId: string | null; userId: number | null }) =>
  principal.keyId ? `key:${principal.keyId}` : `user:${principal.userId}`;

export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (app, { events }) => {
  // Streams never end by themselves: a closing server ends them first, or it would wait for them.
  app.addHook('preClose', async () => {
    await events.close();
  });

  app.get(
    '/events',
    {
      // A stream of its own: never kept, compressed or answered with a 304 (src/http/cache).
      config: { cache: false },
      schema: {
        tags: ['events'],
        summary: "The workspace's changes and presence, live (server-sent events)",
        description: STREAM_DESCRIPTION,
        querystring: EventsQuery,
        produces: ['text/event-stream'],
        response: withErrors({
          200: Type.Unsafe<PassThrough>({ type: 'string', description: 'An event stream (text/event-stream)' }),
        }),
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const header = request.headers['last-event-id'];
      const lastEventId = (Array.isArray(header) ? header[0] : header) ?? request.query.lastEventId;
      const body = new PassThrough();
      const stream = await events.open({
        workspaceId: principal.workspaceId,
        owner: ownerOf(principal),
        lastEventId,
        ...(request.stillAuthenticated && { stillAllowed: request.stillAuthenticated }),
        sink: {
          write: (chunk) => {
            body.write(chunk);
            return body.writableLength + (request.raw.socket?.writableLength ?? 0);
          },
          end: () => {
            body.end();
            // The response ends and its connection closes with it (`Connection: close`); one that
            // a client holds open past that is cut, so a closing server never waits for it.
            const socket = request.raw.socket;
            // (A request injected in a test has a socket without `destroy`.)
            if (typeof socket?.destroy === 'function') setTimeout(() => socket.destroy(), 2000).unref();
          },
        },
      });
      // The client went away: its place in the room and in its owner's count is freed.
      reply.raw.once('close', () => stream.close());
      request.raw.socket?.once('close', () => stream.close());
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          // nginx and similar proxies pass each event on as it comes instead of buffering.
          .header('x-accel-buffering', 'no')
          // A stream the server ends (at shutdown, or when it is old) takes its connection with it.
          .header('connection', 'close')
          .send(body)
      );
    },
  );

  app.get(
    '/presence',
    {
      config: { cache: false },
      schema: {
        tags: ['events'],
        summary: 'Who has which text open now',
        response: withErrors({ 200: PresenceList }),
      },
    },
    async (request) => ({
      presence: (await events.presence.list(principalOf(request).workspaceId)).map(presenceRecord),
    }),
  );

  app.put(
    '/presence',
    {
      schema: {
        tags: ['events'],
        summary: 'This browser tab has this text open (a heartbeat)',
        description:
          'Send it every few seconds while the text is open; the entry goes a few seconds after the last one (`PRESENCE_TTL_MS`, 15 s by default), or at once with DELETE. Answers everyone who has a text open.',
        body: PresenceBody,
        response: withErrors({ 200: PresenceList }),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const entries = await events.presence.heartbeat(principal.workspaceId, principal.email, request.body);
      return { presence: entries.map(presenceRecord) };
    },
  );

  app.delete(
    '/presence',
    {
      schema: {
        tags: ['events'],
        summary: 'This browser tab closed its text',
        body: PresenceLeaveBody,
        response: withErrors({ 200: Type.Object({ success: Type.Literal(true) }) }),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { clientId, kind, id } = request.body;
      await events.presence.leave(
        principal.workspaceId,
        { email: principal.email, clientId },
        kind && id ? { kind, id } : undefined,
      );
      return { success: true as const };
    },
  );
};
