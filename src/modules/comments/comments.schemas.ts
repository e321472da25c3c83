import { type Static, Type } from 'typebox';
import { batchBody, DeveloperId, Nullable } from '../../http/schemas.js';

/** The longest comment body, in characters. */
export const BODY_MAX = 10_000;
/** The longest quoted passage a range keeps. */
export const QUOTE_MAX = 2_000;
export const LIST_MAX_LIMIT = 1000;

const CommentId = Type.String({ minLength: 1, maxLength: 128, description: 'A comment id, as a list returns it' });

const Body = Type.String({
  minLength: 1,
  maxLength: BODY_MAX,
  description:
    "The text of the comment, plain. `@` followed by a workspace user's email (`@ana@example.com`) mentions them; an email that is not a user of the workspace is a 400",
});

export const Range = Type.Object(
  {
    start: Type.Integer({ minimum: 0, description: 'Offset of the first character, in UTF-16 code units' }),
    end: Type.Integer({ minimum: 0, description: 'Offset after the last character; at least `start`' }),
    quote: Type.String({ maxLength: QUOTE_MAX, description: 'The passage as it read when the comment was written' }),
  },
  {
    additionalProperties: false,
    description:
      'A passage of the text (base or `variantId` value) the comment is about. Kept as given: the text may change later, and `quote` lets a client find the passage again',
  },
);

/** The bodies of the batch routes: at most `maxItems` (LIMIT_BATCH_ITEMS) elements each. */
export function bodies(maxItems: number) {
  const CreateBody = batchBody(
    'comments',
    {
      textItemId: Type.Optional(DeveloperId),
      componentId: Type.Optional(DeveloperId),
      variantId: Type.Optional(
        Type.String({ minLength: 1, description: 'Developer ID of a variant: the comment is on that value' }),
      ),
      threadId: Type.Optional(
        Type.String({
          minLength: 1,
          description: 'A reply: the id of the thread (its first comment). A reply takes its text from its thread',
        }),
      ),
      body: Body,
      range: Type.Optional(Range),
    },
    maxItems,
  );
  const UpdateBody = batchBody('updates', { id: CommentId, body: Body }, maxItems);
  const ThreadsBody = Type.Object(
    { threadIds: Type.Array(CommentId, { minItems: 1, maxItems }) },
    { additionalProperties: false },
  );
  const DeleteBody = Type.Object(
    { ids: Type.Array(CommentId, { minItems: 1, maxItems }) },
    { additionalProperties: false },
  );
  return { CreateBody, UpdateBody, ThreadsBody, DeleteBody };
}

type Bodies = ReturnType<typeof bodies>;
/** One comment of POST /v2/comments, and one edit of PATCH /v2/comments. */
export type NewCommentInput = Static<Bodies['CreateBody']>['comments'][number];
export type CommentUpdateInput = Static<Bodies['UpdateBody']>['updates'][number];

export const ListQuery = Type.Object(
  {
    textItemId: Type.Optional(Type.String({ description: 'The comments on this text item (its developer ID)' })),
    componentId: Type.Optional(Type.String({ description: 'The comments on this component (its developer ID)' })),
    projectId: Type.Optional(Type.String({ description: "The comments on this project's text items" })),
    variantId: Type.Optional(
      Type.String({ description: "Only the comments on this variant's values; `base` for those on base text" }),
    ),
    threadId: Type.Optional(Type.String({ description: 'Only this thread' })),
    author: Type.Optional(Type.String({ description: 'Only the comments written by this email (any case)' })),
    open: Type.Optional(
      Type.Boolean({ description: '`true`: only the comments of unresolved threads; `false`: of resolved ones' }),
    ),
    mentions: Type.Optional(
      Type.Unsafe<'me'>({
        type: 'string',
        enum: ['me'],
        description: '`me`: only the comments that mention the caller',
      }),
    ),
    limit: Type.Optional(Type.Integer({ description: `Comments per page, default 100, at most ${LIST_MAX_LIMIT}` })),
    cursor: Type.Optional(Type.String({ description: 'The `nextCursor` of the previous page' })),
  },
  { additionalProperties: false },
);
export type CommentsQuery = Static<typeof ListQuery>;

export const CountsQuery = Type.Object(
  { projectId: Type.Optional(Type.String({ description: "Only this project's text items" })) },
  { additionalProperties: false },
);
export type CountsQuery = Static<typeof CountsQuery>;

export const Comment = Type.Object({
  id: Type.String(),
  threadId: Type.String({ description: "The thread's id: its first comment's (so the first comment's own id)" }),
  textItemId: Nullable(Type.String({ description: 'Developer ID of the text item, null on a component' })),
  componentId: Nullable(Type.String({ description: 'Developer ID of the component, null on a text item' })),
  projectId: Nullable(Type.String({ description: "Developer ID of the text item's project" })),
  variantId: Nullable(Type.String({ description: 'Developer ID of the variant, null on base text' })),
  recordDeleted: Type.Boolean({
    description: 'The text was deleted: its id is the last one it had, and the thread can no longer take replies',
  }),
  body: Type.String(),
  mentions: Type.Array(Type.String(), { description: 'Emails of the users the body mentions' }),
  range: Nullable(Range),
  author: Type.String({ description: "The author's email" }),
  createdAt: Type.String(),
  editedAt: Nullable(Type.String()),
  resolved: Type.Boolean({ description: 'Whether the thread is resolved' }),
  resolvedAt: Nullable(Type.String()),
  resolvedBy: Nullable(Type.String()),
});
export type CommentRecord = Static<typeof Comment>;

export const CommentsPage = Type.Object({
  comments: Type.Array(Comment),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
});

export const OpenCounts = Type.Object({
  textItems: Type.Record(Type.String(), Type.Integer(), {
    description: 'Developer ID -> open threads, for every text item with at least one',
  }),
  components: Type.Record(Type.String(), Type.Integer(), {
    description: 'Developer ID -> open threads, for every component with at least one (none with `projectId`)',
  }),
});
