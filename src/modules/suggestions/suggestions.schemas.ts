import { type Static, Type } from 'typebox';
import type { Limits } from '../../config.js';
import { DeveloperId, Nullable } from '../../http/schemas.js';
import { contentSchemas } from '../texts/index.js';

/** The longest note of a suggestion or of a rejection, in characters. */
export const NOTE_MAX = 10_000;
export const LIST_MAX_LIMIT = 1000;
export const STATUSES = ['open', 'stale', 'accepted', 'rejected', 'withdrawn', 'obsolete'] as const;

const SuggestionId = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'A suggestion id, as a list returns it',
});

const Note = Type.String({ minLength: 1, maxLength: NOTE_MAX });

/** The bodies of the batch routes: at most `maxItems` (LIMIT_BATCH_ITEMS) elements each. */
export function bodies(limits: Limits) {
  const maxItems = limits.batchItems;
  const content = contentSchemas(limits);
  const CreateBody = Type.Object(
    {
      suggestions: Type.Array(
        Type.Object(
          {
            textItemId: Type.Optional(DeveloperId),
            componentId: Type.Optional(DeveloperId),
            variantId: Type.Optional(
              Type.String({
                minLength: 1,
                description: "Developer ID of a variant: the suggestion changes that variant's value",
              }),
            ),
            text: Type.Optional(
              Type.String({ ...content.Text, description: 'The proposed text (HTML with `richText: "html"`)' }),
            ),
            plurals: Type.Optional(content.Plurals),
            richText: content.RichTextInput,
            note: Type.Optional({ ...Note, description: "The suggester's reason, shown to the reviewer" }),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems },
      ),
    },
    { additionalProperties: false },
  );
  const AcceptBody = Type.Object(
    {
      ids: Type.Array(SuggestionId, { minItems: 1, maxItems }),
      force: Type.Optional(
        Type.Boolean({
          description:
            'Apply stale suggestions over the text as it is now (a rebase: the proposed content replaces the current one)',
        }),
      ),
    },
    { additionalProperties: false },
  );
  const RejectBody = Type.Object(
    {
      ids: Type.Array(SuggestionId, { minItems: 1, maxItems }),
      note: Type.Optional({ ...Note, description: "The reviewer's reason, shown to the suggester" }),
    },
    { additionalProperties: false },
  );
  const WithdrawBody = Type.Object(
    { ids: Type.Array(SuggestionId, { minItems: 1, maxItems }) },
    { additionalProperties: false },
  );
  return { CreateBody, AcceptBody, RejectBody, WithdrawBody };
}

type Bodies = ReturnType<typeof bodies>;
/** One suggestion of POST /v2/suggestions. */
export type NewSuggestionInput = Static<Bodies['CreateBody']>['suggestions'][number];

export const ListQuery = Type.Object(
  {
    textItemId: Type.Optional(Type.String({ description: 'The suggestions on this text item (its developer ID)' })),
    componentId: Type.Optional(Type.String({ description: 'The suggestions on this component (its developer ID)' })),
    projectId: Type.Optional(Type.String({ description: "The suggestions on this project's text items" })),
    author: Type.Optional(Type.String({ description: 'Only the suggestions made by this email (any case)' })),
    status: Type.Optional(
      Type.Unsafe<(typeof STATUSES)[number]>({
        type: 'string',
        enum: [...STATUSES],
        description: 'Only the suggestions in this state',
      }),
    ),
    limit: Type.Optional(Type.Integer({ description: `Suggestions per page, default 100, at most ${LIST_MAX_LIMIT}` })),
    cursor: Type.Optional(Type.String({ description: 'The `nextCursor` of the previous page' })),
  },
  { additionalProperties: false },
);
export type SuggestionsQuery = Static<typeof ListQuery>;

const Plural = Type.Object({
  form: Type.String({ description: 'A CLDR plural category' }),
  text: Type.String(),
  richText: Nullable(Type.String()),
});

export const Content = Type.Object({
  text: Type.String({ description: 'Plain text' }),
  richText: Nullable(Type.String({ description: 'The rich text as HTML, null for plain text' })),
  plurals: Nullable(Type.Array(Plural, { description: 'Plural forms, null for none (or, proposed, unchanged)' })),
});
export type Content = Static<typeof Content>;

export const Suggestion = Type.Object({
  id: Type.String(),
  textItemId: Nullable(Type.String({ description: 'Developer ID of the text item, null on a component' })),
  componentId: Nullable(Type.String({ description: 'Developer ID of the component, null on a text item' })),
  projectId: Nullable(Type.String({ description: "Developer ID of the text item's project" })),
  variantId: Nullable(Type.String({ description: 'Developer ID of the variant, null on base text' })),
  recordDeleted: Type.Boolean({ description: 'The text was deleted: its id is the last one it had' }),
  status: Type.Unsafe<(typeof STATUSES)[number]>({
    type: 'string',
    enum: [...STATUSES],
    description:
      '`open`; `stale` (an accept was refused: the text changed since); `accepted`, `rejected`, `withdrawn`; `obsolete` (the text was deleted)',
  }),
  author: Type.String({ description: "The suggester's email" }),
  note: Nullable(Type.String()),
  createdAt: Type.String(),
  proposed: Content,
  base: Type.Object(
    {
      etag: Type.String({ description: "The text's ETag when suggested: an accept sends it as If-Match" }),
      exists: Type.Boolean({ description: 'False for a variant value the text did not have yet' }),
      ...Content.properties,
    },
    { description: 'The content the suggestion was made against' },
  ),
  decidedAt: Nullable(Type.String()),
  decidedBy: Nullable(Type.String({ description: 'Who accepted, rejected or withdrew it' })),
  decisionNote: Nullable(Type.String({ description: "A rejection's note" })),
});
export type SuggestionRecord = Static<typeof Suggestion>;

const WordDiff = Type.Object({
  parts: Type.Array(
    Type.Object({
      type: Type.Unsafe<'same' | 'added' | 'removed'>({ type: 'string', enum: ['same', 'added', 'removed'] }),
      text: Type.String(),
    }),
    {
      description:
        'The plain texts in order: joined, the `same` and `removed` parts are the old one, `same` and `added` the new',
    },
  ),
  added: Type.Integer({ description: 'Words added' }),
  removed: Type.Integer({ description: 'Words removed' }),
});

const Diffs = Type.Object({
  text: WordDiff,
  plurals: Type.Array(Type.Object({ form: Type.String(), ...WordDiff.properties }), {
    description: 'One diff per plural form either side has (empty when plural forms are not part of it)',
  }),
});

export const SuggestionDetail = Type.Object({
  ...Suggestion.properties,
  diff: Type.Object({ ...Diffs.properties }, { description: 'The suggestion against its base (plain text)' }),
  current: Nullable(
    Type.Object(
      { etag: Type.String(), ...Content.properties },
      { description: 'The content as it is now; null once the text is deleted' },
    ),
  ),
  baseChanged: Type.Boolean({ description: 'The text changed since it was suggested (an accept would be refused)' }),
  currentDiff: Nullable(
    Type.Object({ ...Diffs.properties }, { description: 'The base against the current content, when it changed' }),
  ),
});
export type SuggestionDetail = Static<typeof SuggestionDetail>;

export const CountsQuery = Type.Object(
  { projectId: Type.Optional(Type.String({ description: "Only this project's text items" })) },
  { additionalProperties: false },
);
export type CountsQuery = Static<typeof CountsQuery>;

export const PendingCounts = Type.Object({
  textItems: Type.Record(Type.String(), Type.Integer(), {
    description: 'Developer ID -> open and stale suggestions, for every text item with at least one',
  }),
  components: Type.Record(Type.String(), Type.Integer(), {
    description:
      'Developer ID -> open and stale suggestions, for every component with at least one (none with `projectId`)',
  }),
});

export const SuggestionsPage = Type.Object({
  suggestions: Type.Array(Suggestion),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
});
