import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, workspaceOf } from '../../http/auth.js';
import { Nullable, withErrors } from '../../http/schemas.js';
import { CHANGE_ACTIONS, CHANGE_KINDS } from './changes.types.js';
import { HistoryQuery, RestoreBody } from './history.schemas.js';
import type { HistoryService } from './history.service.js';
import type { RestoreService } from './restore.service.js';

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
