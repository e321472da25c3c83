import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { Nullable, withErrors } from '../../http/schemas.js';
import { CHANGE_ACTIONS, CHANGE_KINDS } from './changes.types.js';
import { HISTORY_MAX_LIMIT, type HistoryService } from './history.service.js';
import type { RestoreService } from './restore.service.js';

const HistoryQuery = Type.Object({
  kind: Type.Optional(
    Type.String({ description: `One of ${CHANGE_KINDS.join(', ')}, or several separated by commas` }),
  ),
  id: Type.Optional(
    Type.String({ description: 'A developer ID: every change of the records that had it (renames followed)' }),
  ),
  since: Type.Optional(Type.String({ description: 'ISO 8601 date or date-time, inclusive' })),
  until: Type.Optional(Type.String({ description: 'ISO 8601 date or date-time, exclusive' })),
  actor: Type.Optional(Type.String({ description: 'Email of the user who made the change (any case)' })),
  revision: Type.Optional(
    Type.String({
      description: 'A workspace revision: only the changes of the write that made it (`Copydesk-Revision`)',
    }),
  ),
  limit: Type.Optional(Type.Integer({ description: `Changes per page, default 100, at most ${HISTORY_MAX_LIMIT}` })),
  cursor: Type.Optional(Type.String({ description: 'The `nextCursor` of the previous page' })),
});

const FieldChange = Type.Object({ before: Type.Unknown(), after: Type.Unknown() });

const RecordedChange = Type.Object({
  id: Type.String(),
  at: Type.String({ description: 'When the write committed (ISO 8601, UTC)' }),
  actor: Type.String({ description: 'Email of the user (or `cli` for the administrator tool)' }),
  keyId: Nullable(Type.String({ description: 'The API key used, null for a web session or the CLI' })),
  revision: Nullable(
    Type.String({
      description:
        'The workspace revision the write made, shared by all its changes (null for changes recorded before revisions were)',
    }),
  ),
  kind: Type.Unsafe<string>({ type: 'string', enum: [...CHANGE_KINDS] }),
  developerId: Type.String({ description: 'The record after the write (before it, for a delete)' }),
  variantId: Nullable(Type.String({ description: 'The variant, when a variant value changed' })),
  action: Type.Unsafe<string>({ type: 'string', enum: [...CHANGE_ACTIONS] }),
  fields: Type.Record(Type.String(), FieldChange, {
    description: 'Each changed field, named as in the record, with its value before and after',
  }),
});

const RestoreBody = Type.Object(
  {
    changeId: Type.Optional(
      Type.String({
        description:
          'Restore this version: the record goes back to how this change left it (a `deleted` change: the record comes back as it was just before)',
      }),
    ),
    revision: Type.Optional(
      Type.String({
        description: 'Undo a whole write: every record it changed goes back to how it was just before it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const historyRoutes: FastifyPluginAsyncTypebox<{ history: HistoryService; restore?: RestoreService }> = async (
  app,
  { history, restore },
) => {
  if (restore) {
    app.post(
      '/history/restore',
      {
        schema: {
          tags: ['history'],
          summary: 'Restore a version of a record, or undo a write',
          description:
            'Give `changeId` (a change of GET /history) or `revision` (a write, as `Copydesk-Revision` named it). Text items, components, folders, blocks and projects can be restored. The restore is itself one write: it is in history with its own revision, and webhooks are sent for it.',
          body: RestoreBody,
          response: withErrors({
            200: Type.Object({
              success: Type.Literal(true),
              revision: Nullable(
                Type.String({ description: 'The revision the restore made; null when nothing had to change' }),
              ),
            }),
          }),
        },
      },
      (request) => restore.restore(scopeOf(request), request.body),
    );
  }

  app.get(
    '/history',
    {
      schema: {
        tags: ['history'],
        summary: 'What changed in the workspace, newest first',
        description:
          'One change per record per write. Filter by record (`kind`, `id`), time (`since`, `until`) and `actor`; page with `cursor`.',
        querystring: HistoryQuery,
        response: withErrors({
          200: Type.Object({ changes: Type.Array(RecordedChange), nextCursor: Nullable(Type.String()) }),
        }),
      },
    },
    (request) => history.list(workspaceOf(request), request.query),
  );
};
