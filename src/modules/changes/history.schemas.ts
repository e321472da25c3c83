import { type Static, Type } from 'typebox';
import { CHANGE_KINDS } from './changes.types.js';

export const HISTORY_MAX_LIMIT = 1000;

export const HistoryQuery = Type.Object({
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

/** GET /v2/history's query as the service takes it: every filter still a string, checked there. */
export type HistoryQuery = Static<typeof HistoryQuery>;

export const RestoreBody = Type.Object(
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

/** POST /v2/history/restore's body: a change to go back to, or a write to undo. */
export type RestoreInput = Static<typeof RestoreBody>;
