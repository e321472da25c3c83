import { type Static, Type } from 'typebox';
import type { Limits } from '../../config.js';
import { DeveloperId, Nullable } from '../../http/schemas.js';
import { ComponentRecord } from '../components/index.js';
import {
  contentSchemas,
  PLURAL_FORMS,
  RichTextQuery,
  WithEtagQuery,
  WithTranslationStateQuery,
} from '../texts/index.js';

const { folderId: _folderId, name: _name, status, assignee, ...shared } = ComponentRecord.properties;

/** The text item record: the component record without `folderId` and `name`, plus where the item lives. */
export const TextItemRecord = Type.Object({
  ...shared,
  projectId: Type.String({ description: 'Developer ID of the project; for a base text item, of its base' }),
  baseId: Nullable(
    Type.String({ description: 'Developer ID of the base the project is connected to (a base item: its base)' }),
  ),
  baseTextItemId: Nullable(Type.String({ description: 'Developer ID of the base text item this item derives from' })),
  blockName: Nullable(Type.String({ description: 'Name of the block the item belongs to' })),
  blockId: Nullable(
    Type.String({ description: 'Developer ID of the block the item belongs to (unique within its project)' }),
  ),
  componentId: Nullable(
    Type.String({ description: 'Developer ID of the component this item is a linked instance of' }),
  ),
  status,
  assignee,
});

export const ListQuery = Type.Object({
  filter: Type.Optional(
    Type.String({
      description:
        'URL-encoded JSON: `projects` [{ id }], `bases` [{ id }], `variants` [{ id }] (`base`, `all`), `statuses`, `tags` { values, operator? }, `assignee` (email or null), `integrated`. No `projects` and no `bases`: every project and no base items. Statuses and assignee do not filter base items',
    }),
  ),
  sort: Type.Optional(
    Type.Enum(['id', 'project_order'], {
      default: 'id',
      description:
        '`id`: by developer ID; `project_order`: by project developer ID, then the custom order of each project',
    }),
  ),
  ids: Type.Optional(
    Type.String({
      maxLength: 10_000,
      description:
        'Comma-separated developer IDs: only these items (with the filter’s other conditions). The web app reads the text it opens this way',
    }),
  ),
  release: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Name of a release: read its frozen texts instead of the current ones (docs/releases.md)',
    }),
  ),
  richText: RichTextQuery,
  withEtag: WithEtagQuery,
  withTranslationState: WithTranslationStateQuery,
});

/** `POST /v2/textItems/instances`: one component placed into a project as a linked instance. */
export const PlaceInstanceBody = Type.Object(
  {
    componentId: Type.String({ description: 'Developer ID of the component to place' }),
    projectId: Type.String({ description: 'Developer ID of the project the instance goes into' }),
    blockId: Type.Optional(
      Nullable(Type.String({ description: 'Developer ID of a block of the project; null or omitted: none' })),
    ),
    developerId: Type.Optional(DeveloperId),
  },
  { additionalProperties: false },
);
export type PlaceInstanceInput = Static<typeof PlaceInstanceBody>;

export const InstancesQuery = Type.Object({
  componentId: Type.String({ description: 'Developer ID of the component' }),
});

export const InstanceRecord = Type.Object({
  id: Type.String({ description: 'Developer ID of the text item' }),
  projectId: Type.String({ description: 'Developer ID of its project (or base)' }),
  blockId: Nullable(Type.String({ description: 'Developer ID of its block' })),
  blockName: Nullable(Type.String({ description: 'Name of its block' })),
  status: Type.String({ description: 'The instance’s own status' }),
});

export function textItemSchemas(limits: Limits) {
  const c = contentSchemas(limits);
  const batch = { maxItems: limits.batchItems };
  const BlockId = Nullable(Type.String({ description: 'Developer ID of a block of the item’s project; null: none' }));

  const NewTextItem = Type.Object(
    {
      ...c.NewFields,
      blockId: Type.Optional(BlockId),
      baseTextItemId: Type.Optional(
        Nullable(Type.String({ description: 'Developer ID of an item of the project’s connected base' })),
      ),
    },
    { additionalProperties: false },
  );

  const CreateBody = Type.Object(
    {
      projectId: Type.Optional(Type.String({ description: 'The project to create the items in (or `baseId`)' })),
      baseId: Type.Optional(Type.String({ description: 'The base to create the items in (or `projectId`)' })),
      richText: c.RichTextInput,
      textItems: Type.Array(NewTextItem, batch),
    },
    { additionalProperties: false },
  );

  const UpdateBody = Type.Object(
    {
      updates: Type.Array(
        Type.Object(
          {
            ...c.UpdateFields,
            blockId: Type.Optional(BlockId),
            projectId: Type.Optional(
              Type.String({
                description:
                  'Developer ID of another project to move the item to (a project, not a base): it goes to the end of that project, into `blockId` (a block of the new project) or, without `blockId`, outside blocks',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, ...batch },
      ),
      ...c.UpdateOptions,
    },
    { additionalProperties: false },
  );

  const PluralOperations = Type.Object(
    {
      upsert: Type.Optional(
        Type.Array(Type.Object({ form: Type.Enum([...PLURAL_FORMS]), text: c.Text }, { additionalProperties: false }), {
          maxItems: PLURAL_FORMS.length,
          description: 'Forms to add or replace; new forms go after the existing ones',
        }),
      ),
      remove: Type.Optional(
        Type.Array(Type.Enum([...PLURAL_FORMS]), {
          maxItems: PLURAL_FORMS.length,
          description: 'Forms to remove; each must exist',
        }),
      ),
    },
    { additionalProperties: false, description: 'Plural forms not mentioned are kept' },
  );

  const PutBody = Type.Object(
    {
      updates: Type.Array(
        Type.Object(
          {
            developerId: DeveloperId,
            text: Type.Optional(c.Text),
            tags: Type.Optional(c.Tags),
            status: Type.Optional(c.Status),
            assignee: Type.Optional(c.Assignee),
            integrated: Type.Optional(Type.Boolean()),
            plurals: Type.Optional(PluralOperations),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, ...batch },
      ),
      ...c.UpdateOptions,
    },
    { additionalProperties: false },
  );

  return { CreateBody, UpdateBody, PutBody };
}

type Schemas = ReturnType<typeof textItemSchemas>;
export type CreateTextItemsInput = Static<Schemas['CreateBody']>;
export type NewTextItemInput = CreateTextItemsInput['textItems'][number];
export type UpdateTextItemsInput = Static<Schemas['UpdateBody']>;
export type TextItemUpdateInput = UpdateTextItemsInput['updates'][number];
export type PutTextItemsInput = Static<Schemas['PutBody']>;
export type PutTextItemInput = PutTextItemsInput['updates'][number];
export type ListTextItemsQuery = Static<typeof ListQuery>;

const Bool = (description: string) => Type.Optional(Type.Boolean({ description }));

/** `GET /v2/textItems/rows`: the app's paged list of one project (docs/app-list.md). */
export const RowsQuery = Type.Object({
  projectId: Type.String({ description: 'Developer ID of the project (or base) whose items are listed' }),
  blockId: Type.Optional(Type.String({ description: 'Developer ID of a block of the project: only its items' })),
  status: Type.Optional(Type.String({ description: 'Comma-separated statuses: items with one of them' })),
  assignee: Type.Optional(
    Type.String({ description: 'An email: items assigned to that person; `unassigned`: items without one' }),
  ),
  tags: Type.Optional(Type.String({ description: 'Comma-separated tags: items with every one of them' })),
  variant: Type.Optional(Type.String({ description: 'Developer ID of a variant, with `state`' })),
  state: Type.Optional(
    Type.Enum(['missing', 'outdated', 'upToDate'], { description: 'The state of the item’s value of `variant`' }),
  ),
  integrated: Bool('Items marked integrated (true) or not (false)'),
  plurals: Bool('Items with plural forms (true) or without (false)'),
  variables: Bool(
    'Items that list a variable or have a `{{placeholder}}` in their base text (true), or neither (false)',
  ),
  q: Type.Optional(
    Type.String({
      maxLength: 500,
      description:
        'Search: items whose developer ID, text, notes, tags or variant values hold every word as a word prefix',
    }),
  ),
  sort: Type.Optional(
    Type.Enum(['project_order', 'id'], {
      default: 'project_order',
      description: '`project_order`: the project’s custom order (the default); `id`: by developer ID',
    }),
  ),
  states: Type.Optional(
    Type.String({ description: 'Comma-separated variant developer IDs: each row says its state in each' }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Position of the first row in the filtered, sorted list (a jump)' }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'A `nextCursor`: the rows after that page’s last one, wherever it now stands (instead of `offset`)',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'Rows per page' })),
  ids: Type.Optional(
    Type.String({ maxLength: 100_000, description: 'Comma-separated developer IDs: only these items' }),
  ),
  facets: Bool(
    'Also answer, per filter group, how many items pass the other groups and how many of them have each value (status, assignee, tags, state of `variant`, integrated, plurals, variables)',
  ),
});
export type RowsQuery = Static<typeof RowsQuery>;

const TranslationStateEnum = Type.Enum(['missing', 'outdated', 'upToDate']);

export const ListRow = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  text: Type.String({ description: 'The base text, plain, cut after 200 characters' }),
  status: Type.String(),
  assignee: Nullable(Type.String({ description: 'Email of the assignee' })),
  tags: Type.Array(Type.String()),
  blockId: Nullable(Type.String()),
  blockName: Nullable(Type.String()),
  componentId: Nullable(Type.String({ description: 'The component of a linked instance' })),
  plurals: Type.Boolean({ description: 'Whether the base text has plural forms' }),
  states: Type.Record(Type.String(), TranslationStateEnum, {
    description: 'By variant developer ID (those of `states`): the state of the item’s value',
  }),
});

export const RowsPage = Type.Object({
  total: Type.Integer({ description: 'Items that pass the filters' }),
  offset: Type.Integer({ description: 'Position of the first row in the filtered, sorted list' }),
  rows: Type.Array(ListRow),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null at the end' })),
  facets: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Object({
        total: Type.Integer({ description: 'Items that pass every other filter group' }),
        values: Type.Record(Type.String(), Type.Integer(), { description: 'Of those, how many have each value' }),
      }),
      { description: 'With `facets=true`, by filter group' },
    ),
  ),
});
