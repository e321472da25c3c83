import { type Static, Type } from 'typebox';
import type { Limits } from '../../config.js';
import { Nullable } from '../../http/schemas.js';
import {
  contentSchemas,
  PLURAL_FORMS,
  RichTextQuery,
  TranslationStateFields,
  WithEtagQuery,
  WithTranslationStateQuery,
} from '../texts/index.js';

/** The component record of the API description's table, every field listed. */
export const ComponentRecord = Type.Object({
  id: Type.String({ description: 'Developer ID; `<developerId>_<form>` for a plural form record' }),
  text: Type.String({ description: 'Plain text; for a variant record, the variant text' }),
  richText: Type.Optional(Type.String({ description: 'HTML; present only when `richText` was asked for' })),
  notes: Type.String({ description: 'Empty string when none' }),
  characterLimit: Nullable(Type.Integer({ minimum: 1 })),
  tags: Type.Array(Type.String(), { description: 'Base tags, in every record' }),
  integrated: Type.Boolean(),
  variableIds: Type.Array(Type.String(), { description: 'Listed variables that this record’s own text uses' }),
  variantId: Nullable(Type.String({ description: 'Developer ID of the variant; null for base text' })),
  pluralForm: Nullable(Type.Enum([...PLURAL_FORMS])),
  folderId: Nullable(Type.String({ description: 'Developer ID of the component folder; null at the root' })),
  name: Type.String(),
  status: Type.String({ description: 'Status id; for a variant record, the variant status' }),
  assignee: Nullable(Type.String({ description: 'Email; for a variant record, the variant assignee' })),
  etag: Type.Optional(
    Type.String({ description: "The text's ETag, with `withEtag=true` (the same in each of its records)" }),
  ),
  ...TranslationStateFields,
});

export const ListQuery = Type.Object({
  filter: Type.Optional(
    Type.String({
      description:
        'URL-encoded JSON: `folders` [{ id, excludeNestedFolders? }] (`root` for root-level), `variants` [{ id }] (`base`, `all`), `statuses`, `tags` { values, operator? }, `assignee` (email or null), `integrated`',
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

export type ListComponentsQuery = Static<typeof ListQuery>;

export function componentSchemas(limits: Limits) {
  const c = contentSchemas(limits);
  const FolderId = Nullable(
    Type.String({ description: 'Developer ID of a component folder; null or `root` for the library root' }),
  );

  const NewComponent = Type.Object(
    {
      ...c.NewFields,
      name: Type.Optional(
        Type.String({ minLength: 1, description: 'Defaults to the developer ID, else to the text (64 characters)' }),
      ),
      folderId: Type.Optional(FolderId),
    },
    { additionalProperties: false },
  );

  const CreateBody = Type.Object(
    { richText: c.RichTextInput, components: Type.Array(NewComponent, { maxItems: limits.batchItems }) },
    { additionalProperties: false },
  );

  const ComponentUpdate = Type.Object(
    {
      ...c.UpdateFields,
      name: Type.Optional(Type.String({ minLength: 1, description: 'The component’s new name' })),
      folderId: Type.Optional(FolderId),
    },
    { additionalProperties: false },
  );

  const UpdateBody = Type.Object(
    { updates: Type.Array(ComponentUpdate, { minItems: 1, maxItems: limits.batchItems }), ...c.UpdateOptions },
    { additionalProperties: false },
  );

  return { CreateBody, UpdateBody };
}

export type NewComponentInput = Static<ReturnType<typeof componentSchemas>['CreateBody']>['components'][number];
export type CreateComponentsInput = Static<ReturnType<typeof componentSchemas>['CreateBody']>;
export type ComponentUpdateInput = Static<ReturnType<typeof componentSchemas>['UpdateBody']>['updates'][number];
export type UpdateComponentsInput = Static<ReturnType<typeof componentSchemas>['UpdateBody']>;

export const PublishBody = Type.Object(
  {
    textItemId: Type.String({ description: 'Developer ID of the text item; the component gets the same' }),
    name: Type.Optional(Type.String({ minLength: 1, description: 'Component name; defaults to the developer ID' })),
    folderId: Type.Optional(
      Nullable(Type.String({ description: 'Developer ID of a component folder; null or `root`: the library root' })),
    ),
  },
  { additionalProperties: false },
);

export type PublishInput = Static<typeof PublishBody>;
