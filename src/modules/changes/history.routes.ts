import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { workspaceOf } from '../../http/auth.js';
import { Nullable, withErrors } from '../../http/schemas.js';
import { CHANGE_ACTIONS, CHANGE_KINDS } from './changes.types.js';
import { HISTORY_MAX_LIMIT, type HistoryService } from './history.service.js';

const HistoryQuery = Type.Object({
  kind: Type.Optional(Type.String({ description: `One of ${CHANGE_KINDS.join(', ')}` })),
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

export const historyRoutes: FastifyPluginAsyncTypebox<{ history: HistoryService }> = async (app, { history }) => {
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
