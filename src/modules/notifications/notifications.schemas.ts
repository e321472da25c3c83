import { type Static, Type } from 'typebox';
import { DeveloperId, Nullable } from '../../http/schemas.js';

export const LIST_MAX_LIMIT = 1000;

export const NOTIFICATION_KINDS = [
  'mention',
  'reply',
  'assigned',
  'suggestion',
  'suggestion_decided',
  'status',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const ListQuery = Type.Object(
  {
    unread: Type.Optional(Type.Boolean({ description: '`true`: only the unread notifications' })),
    limit: Type.Optional(
      Type.Integer({ description: `Notifications per page, default 50, at most ${LIST_MAX_LIMIT}` }),
    ),
    cursor: Type.Optional(Type.String({ description: 'The `nextCursor` of the previous page' })),
  },
  { additionalProperties: false },
);
export type NotificationsQuery = Static<typeof ListQuery>;

export const Notification = Type.Object({
  id: Type.String({ description: 'Pass to POST /v2/notifications/read' }),
  kind: Type.Unsafe<NotificationKind>({
    type: 'string',
    enum: [...NOTIFICATION_KINDS],
    description:
      '`mention`: a comment mentions you; `reply`: a reply in a thread you are in; `assigned`: a text was assigned to you; `suggestion`: a suggestion on a text assigned to you, or on an unassigned text you follow; `suggestion_decided`: your suggestion was accepted or rejected; `status`: a status change on a text you follow',
  }),
  textItemId: Nullable(Type.String({ description: 'Developer ID of the text item, null for a component' })),
  componentId: Nullable(Type.String({ description: 'Developer ID of the component, null for a text item' })),
  projectId: Nullable(Type.String({ description: "Developer ID of the text item's project" })),
  variantId: Nullable(Type.String({ description: 'The variant the change or comment is on, null for base text' })),
  recordDeleted: Type.Boolean({ description: 'The text was deleted since: its ids are the last it had' }),
  threadId: Nullable(Type.String({ description: 'The comment thread, for mentions and replies' })),
  commentId: Nullable(Type.String({ description: 'The comment, for mentions and replies' })),
  actor: Type.String({ description: 'Who made the change (an email)' }),
  at: Type.String(),
  read: Type.Boolean(),
  readAt: Nullable(Type.String()),
  detail: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'What the kind adds: `status`: `{ from, to }`; `suggestion`: `{ suggestionId }`; `suggestion_decided`: `{ suggestionId, decision: "accepted" | "rejected", note, forced }` (`note`: the note of a rejection, else null; `forced`: accepted over a text that changed since)',
    }),
  ),
  link: Type.String({
    description:
      "The app's path to the text (`/projects/{projectId}/texts/{id}` or `/library/components/{id}`), with `?thread=` for a comment and `?suggestion=` for a suggestion",
  }),
});
export type NotificationRecord = Static<typeof Notification>;

export const NotificationsPage = Type.Object({
  notifications: Type.Array(Notification),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
});

export const UnreadCount = Type.Object({ unread: Type.Integer({ description: "The caller's unread notifications" }) });

export function readBody(maxItems: number) {
  return Type.Object(
    {
      ids: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
          minItems: 1,
          maxItems,
          description: 'The notifications to mark read',
        }),
      ),
      all: Type.Optional(Type.Literal(true, { description: 'Mark every notification of the caller read' })),
    },
    { additionalProperties: false },
  );
}
export type ReadInput = Static<ReturnType<typeof readBody>>;

export const ReadResult = Type.Object({
  updated: Type.Integer({ description: 'How many were unread and are now read' }),
  unread: Type.Integer({ description: 'The unread notifications left' }),
});

/** `PUT` and `DELETE /v2/follows`: the texts, each a text item or a component. */
export function followsBody(maxItems: number) {
  return Type.Object(
    {
      follows: Type.Array(
        Type.Object(
          { textItemId: Type.Optional(DeveloperId), componentId: Type.Optional(DeveloperId) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems },
      ),
    },
    { additionalProperties: false },
  );
}
export type FollowInput = Static<ReturnType<typeof followsBody>>['follows'][number];

export const FollowsQuery = Type.Object(
  {
    textItemId: Type.Optional(Type.String({ description: 'Only this text item: whether the caller follows it' })),
    componentId: Type.Optional(Type.String({ description: 'Only this component' })),
    limit: Type.Optional(Type.Integer({ description: `Follows per page, default 100, at most ${LIST_MAX_LIMIT}` })),
    cursor: Type.Optional(Type.String({ description: 'The `nextCursor` of the previous page' })),
  },
  { additionalProperties: false },
);
export type FollowsQuery = Static<typeof FollowsQuery>;

export const Follow = Type.Object({
  textItemId: Nullable(Type.String()),
  componentId: Nullable(Type.String()),
  projectId: Nullable(Type.String({ description: "The text item's project" })),
  reason: Type.Unsafe<'created' | 'assigned' | 'explicit'>({
    type: 'string',
    enum: ['created', 'assigned', 'explicit'],
    description: 'Why the caller follows it: they created it, were assigned it, or asked to',
  }),
  since: Type.String(),
});
export type FollowRecord = Static<typeof Follow>;

export const FollowsPage = Type.Object({
  follows: Type.Array(Follow),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
});
