import { type Static, Type } from 'typebox';
import { FORMATS } from '../../formats/types.js';
import { RichTextQuery } from '../texts/index.js';

const VARIANT =
  'Developer ID of the variant to export (`base` or none: base text). The file holds the texts that have a value of it, unless `fallback=base`';

const common = {
  format: Type.Enum([...FORMATS], { description: 'The file format' }),
  richText: RichTextQuery,
  variantId: Type.Optional(Type.String({ description: VARIANT })),
  variant: Type.Optional(Type.String({ description: 'Alias of `variantId`' })),
  variableOrder: Type.Optional(
    Type.Enum(['default', 'alphabetical'], {
      description:
        'Numbering of positional variables (ios-strings, ios-stringsdict, android): creation order or by name',
    }),
  ),
  fallback: Type.Optional(
    Type.Enum(['base'], {
      description:
        'With a variant: `base` fills the texts that have no value of the variant with their base text (by default they are left out)',
    }),
  ),
  excludeVariantMetadata: Type.Optional(
    Type.Boolean({
      description:
        'Leave `__variant-name` and `__variant-description` (arb: `@@x-variant-*`) out of JSON variant exports; the comments of the other formats stay',
    }),
  ),
  includeVariableSummary: Type.Optional(
    Type.Boolean({ description: 'Add `__variables_used` to json_i18next and json_vue_i18n exports' }),
  ),
};

export const TextItemsExportQuery = Type.Object({
  ...common,
  filter: Type.Optional(
    Type.String({
      description:
        'URL-encoded JSON: `projects`, `bases`, `statuses`, `tags`, `assignee`, `integrated` as for GET /textItems (no `variants`: use `variantId`). No `projects` and no `bases`: every project and no base items',
    }),
  ),
  sort: Type.Optional(Type.Enum(['id', 'project_order'], { description: 'As for GET /textItems' })),
});

export const ComponentsExportQuery = Type.Object({
  ...common,
  filter: Type.Optional(
    Type.String({
      description:
        'URL-encoded JSON: `folders`, `statuses`, `tags`, `assignee`, `integrated` as for GET /components (no `variants`: use `variantId`)',
    }),
  ),
});

export const ExportFile = Type.Unknown({
  description:
    'The file: a JSON object (json_icu, json_i18next, json_vue_i18n, arb), `.strings` text (ios-strings) or XML (ios-stringsdict, android)',
});

/** An export's query as the service takes it: the components' is the same without `sort`. */
export type ExportQuery = Static<typeof TextItemsExportQuery>;
