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
      developerId: Type.Optional(DeveloperId),
      text: c.Text,
      blockId: Type.Optional(BlockId),
      notes: Type.Optional(c.Notes),
      tags: Type.Optional(c.Tags),
      status: Type.Optional(c.Status),
      assignee: Type.Optional(c.Assignee),
      characterLimit: Type.Optional(c.CharacterLimit),
      integrated: Type.Optional(Type.Boolean()),
      variables: Type.Optional(c.Variables),
      plurals: Type.Optional(c.Plurals),
      variants: Type.Optional(Type.Array(c.VariantValue, batch)),
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
            developerId: DeveloperId,
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
