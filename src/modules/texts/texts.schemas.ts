import { type Static, type TObject, Type } from 'typebox';
import type { Limits } from '../../config.js';
import type { StoredPlural } from '../../db/schema.js';
import { DEVELOPER_ID_PATTERN, DeveloperId, Nullable } from '../../http/schemas.js';
import { PLURAL_FORMS } from './plurals.js';

/**
 * Request schemas shared by components and text items, with the configured limits
 * (`LIMIT_*` settings), so a text, notes or tags over the limit is a 400 naming the field; then
 * the types of the content inputs, derived from them (`NewContentInput`, `ContentUpdateInput`,
 * ...), which the write steps take.
 */
export function contentSchemas(limits: Limits) {
  const Text = Type.String({ maxLength: limits.textChars });
  const Notes = Nullable(Type.String({ maxLength: limits.notesChars, description: 'null leaves notes empty' }));
  const Tags = Type.Array(Type.String({ maxLength: limits.tagChars }), {
    maxItems: limits.tags,
    description: 'Replaces the tags; empty means none',
  });
  const Status = Type.String({ minLength: 1, description: 'A status id of the workspace (GET /statuses)' });
  const Assignee = Nullable(
    Type.String({ description: 'Email of a workspace user (any case); null for none or to remove' }),
  );
  const CharacterLimit = Nullable(Type.Integer({ minimum: 1, description: 'Positive integer; null for none' }));
  const Variables = Type.Array(Type.String(), {
    maxItems: limits.batchItems,
    description: 'Developer IDs of the variables whose `{{name}}` placeholders resolve in this text',
  });
  const Plurals = Type.Array(
    Type.Object({ form: Type.Enum([...PLURAL_FORMS]), text: Text }, { additionalProperties: false }),
    {
      maxItems: PLURAL_FORMS.length,
      description:
        "The whole list of plural forms, each form once; the first form's text equals the text. An empty list removes the plurals",
    },
  );
  const VariantValue = Type.Object(
    {
      variantId: Type.String({ description: 'Developer ID of an existing variant' }),
      text: Text,
      status: Type.Optional(Status),
      assignee: Type.Optional(Assignee),
      notes: Type.Optional(Notes),
      characterLimit: Type.Optional(CharacterLimit),
      plurals: Type.Optional(Plurals),
    },
    { additionalProperties: false },
  );
  /**
   * The fields of one new text both kinds take; each kind adds its own (a component's name and
   * folder, a text item's block and base text item).
   */
  const NewFields = {
    developerId: Type.Optional(DeveloperId),
    text: Text,
    notes: Type.Optional(Notes),
    tags: Type.Optional(Tags),
    status: Type.Optional(Status),
    assignee: Type.Optional(Assignee),
    characterLimit: Type.Optional(CharacterLimit),
    integrated: Type.Optional(Type.Boolean()),
    variables: Type.Optional(Variables),
    plurals: Type.Optional(Plurals),
    variants: Type.Optional(Type.Array(VariantValue, { maxItems: limits.batchItems })),
  };
  const RichTextInput = Type.Optional(
    Type.Literal('html', {
      description: 'Every text of the request (plural and variant text included) is parsed as HTML',
    }),
  );
  /**
   * The fields of one PATCH update both kinds take: the text it names, then its content fields,
   * all optional. Each kind adds its own (a component's name and folder, a text item's block and
   * project).
   */
  const UpdateFields = {
    developerId: DeveloperId,
    text: Type.Optional(Text),
    plurals: Type.Optional(Plurals),
    tags: Type.Optional(Tags),
    status: Type.Optional(Status),
    assignee: Type.Optional(Assignee),
    notes: Type.Optional(Notes),
    characterLimit: Type.Optional(CharacterLimit),
    integrated: Type.Optional(Type.Boolean()),
    variables: Type.Optional(Variables),
    addTags: Type.Optional(
      Type.Array(Type.String({ maxLength: limits.tagChars }), {
        maxItems: limits.tags,
        description:
          'Tags to add to those the text has (after `tags`, when both are given); a tag it has already is left as it is',
      }),
    ),
    removeTags: Type.Optional(
      Type.Array(Type.String({ maxLength: limits.tagChars }), {
        maxItems: limits.tags,
        description: 'Tags to remove (after `tags` and `addTags`); a tag the text does not have is no error',
      }),
    ),
    newDeveloperId: Type.Optional(
      Type.String({
        pattern: DEVELOPER_ID_PATTERN,
        description:
          'A new developer ID (409 when another record of the kind has it); the record keeps its history, ETag rules and references',
      }),
    ),
  };
  /** The body-level options of a PATCH (and of the deprecated PUT /textItems). */
  const UpdateOptions = {
    variantId: Type.Optional(
      Type.String({
        pattern: DEVELOPER_ID_PATTERN,
        description: 'Text, plurals, status, assignee, notes and characterLimit change this variant’s values',
      }),
    ),
    forceVariantCreation: Type.Optional(
      Type.Boolean({ description: 'Create an unknown `variantId`, named after its id' }),
    ),
    richText: RichTextInput,
  };
  return {
    Text,
    Notes,
    Tags,
    Status,
    Assignee,
    CharacterLimit,
    Variables,
    Plurals,
    VariantValue,
    NewFields,
    RichTextInput,
    UpdateFields,
    UpdateOptions,
  };
}

type ContentSchemas = ReturnType<typeof contentSchemas>;

/** One new text as a create's element carries it, without the kind's own fields. */
export type NewContentInput = Static<TObject<ContentSchemas['NewFields']>>;

/** A variant value of a new text. */
export type VariantValueInput = Static<ContentSchemas['VariantValue']>;

/**
 * One plural form to write, as a request sends it. `kept` is no field of any body: the
 * deprecated PUT turns its plural operations into PATCH's whole list, and the forms its `upsert`
 * does not name are kept as stored (rich text included) rather than written again from their
 * plain text (text-items.service.ts#mergePlurals).
 */
export type PluralInput = Static<ContentSchemas['Plurals']>[number] & { kept?: StoredPlural };

/**
 * One update of a PATCH, without the kind's own fields. Its `plurals` are `PluralInput`s, so
 * that the PUT's translated updates can carry kept forms.
 */
export type ContentUpdateInput = Omit<Static<TObject<ContentSchemas['UpdateFields']>>, 'plurals'> & {
  plurals?: PluralInput[];
};

export const IfMatchHeader = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'The ETags (`etag` of GET with `withEtag=true`) of the texts as the client read them: if any text of the request has changed since, nothing is written and the answer is 412',
    }),
  ),
});

export const WithEtagQuery = Type.Optional(
  Type.Boolean({
    description:
      "Each record also carries `etag`, its text's version: send it back in `If-Match` on PATCH so that a change made meanwhile by someone else is a 412, not overwritten",
  }),
);

export const RichTextQuery = Type.Optional(
  Type.Enum(['html', 'html_paragraphs'], {
    description: '`html`: `<br />` line breaks; `html_paragraphs`: each line wrapped in `<p>`',
  }),
);

export const WithTranslationStateQuery = Type.Optional(
  Type.Boolean({
    description:
      'Records also carry their translation state: base records `translationStates` (every variant of the workspace), variant records `translationState`',
  }),
);

const STATES = ['missing', 'outdated', 'upToDate'];
const STATE_MEANING =
  '`missing`: no value in the variant; `outdated`: the base text or its plural forms changed after the value’s text was last written; `upToDate`: otherwise';

/** The record fields `withTranslationState=true` adds (components and text items alike). */
export const TranslationStateFields = {
  translationStates: Type.Optional(
    Type.Record(Type.String(), Type.Enum(STATES), {
      description: `Base records (\`variantId\` null), with \`withTranslationState=true\`: the state of the text in each variant of the workspace, by variant developer ID. ${STATE_MEANING}`,
    }),
  ),
  translationState: Type.Optional(
    Type.Enum(STATES, {
      description: `Variant records, with \`withTranslationState=true\`: the state of this variant value. ${STATE_MEANING}`,
    }),
  ),
};
