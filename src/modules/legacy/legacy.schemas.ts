import { type Static, Type } from 'typebox';
import type { Limits } from '../../config.js';
import { contentSchemas } from '../texts/index.js';

/** The `format` values of the text fetches; `ios-strings-dict` is an alias of `ios-stringsdict`. */
export const LEGACY_FORMATS = [
  'full',
  'flat',
  'structured',
  'nested',
  'icu',
  'android',
  'ios-strings',
  'ios-stringsdict',
  'ios-strings-dict',
] as const;

export type LegacyFormat = Exclude<(typeof LEGACY_FORMATS)[number], 'ios-strings-dict'>;

const OneOrMany = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }));

const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));

/** Every text fetch takes these; parameters not listed (a client's meta pairs) are accepted and ignored. */
export const FetchQuery = Type.Object({
  format: Type.Optional(Type.Enum([...LEGACY_FORMATS], { description: 'The body; `full` when absent' })),
  variant: Type.Optional(
    Type.String({
      description:
        'Developer ID of a variant: its text, and only the texts that have a value of it (`base`: base text)',
    }),
  ),
  status: OneOrMany("Only texts in this status (a variant's value: its own status). Given twice, the last one counts"),
  includeRichText: Flag('Add `rich_text` (each line in `<p>`) to `structured` and `full`'),
  exclude_components: Flag('Project fetches: leave out text items that are library instances'),
  root_only: Flag('GET /components: only the components outside folders'),
  'projectIds[]': OneOrMany('GET /projects and GET /variants: the projects to include (developer IDs)'),
  projectIds: OneOrMany('Alias of `projectIds[]`'),
});

export type FetchQueryInput = Static<typeof FetchQuery>;

export const ProjectIdParams = Type.Object({ id: Type.String({ description: 'Developer ID of the project' }) });
export const FolderIdParams = Type.Object({ id: Type.String({ description: 'Developer ID of the component folder' }) });

export const ProjectList = Type.Array(
  Type.Object({
    id: Type.String({ description: 'Developer ID; `ditto_component_library` for the component library' }),
    name: Type.String(),
  }),
  { description: 'Projects with developer mode on, in creation order; the library first when it is reachable' },
);

export const VariantList = Type.Array(
  Type.Object({ apiID: Type.String(), name: Type.String(), description: Type.String() }),
);

export const FolderMap = Type.Record(Type.String(), Type.String(), {
  description: 'Folder developer ID to folder name, every folder of the library',
});

export const VariableMap = Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
  description:
    'Variable name to its description: `__type` with `example`/`fallback` (string, number), `text`/`url` (hyperlink), `values` (list) or `entries` (map)',
});

export const TextBody = Type.Unknown({
  description:
    'JSON for full, flat, structured, nested and icu; XML for android and ios-stringsdict; `.strings` text for ios-strings',
});

/** PUT /components: the same updates keyed by developer ID, at the top level (v0) or under `data` (v1). */
export function updateBodies(limits: Limits) {
  const c = contentSchemas(limits);
  const Update = Type.Object(
    {
      text: c.Text,
      notes: Type.Optional(c.Notes),
      tags: Type.Optional(c.Tags),
      plurals: Type.Optional(c.Plurals),
    },
    { additionalProperties: false },
  );
  const Updates = Type.Record(Type.String(), Update, {
    maxProperties: limits.batchItems,
    description: 'Developer ID to its new content; unknown developer IDs are skipped',
  });
  return {
    v0: Updates,
    v1: Type.Object({ data: Updates }, { additionalProperties: false }),
  };
}

export type LegacyUpdates = Static<ReturnType<typeof updateBodies>['v0']>;

export const UpdateQuery = Type.Object({
  variant: Type.Optional(
    Type.String({ description: 'Developer ID of a variant: its value changes (added when missing), not the base' }),
  ),
});

export const UpdateResult = Type.Object({
  componentsUpdated: Type.Integer(),
  componentsSkipped: Type.Integer({ description: 'Developer IDs that name no component' }),
});

const Column = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 1, description: `${description}: a column number, 1 for the first` }));

export const ImportQuery = Type.Object({
  name: Type.Optional(
    Type.String({
      description: 'CSV: the column numbers of the name, as `3`, `1,2` or `[1,2]`; several columns are joined with `/`',
    }),
  ),
  text: Column('CSV: the text (required for CSV)'),
  notes: Column('CSV: the notes'),
  tags: Column('CSV: the tags, comma-separated in the cell'),
  status: Column('CSV: the status id'),
  componentId: Column('CSV: the developer ID (else one is made from the name or text)'),
});

export type ImportQueryInput = Static<typeof ImportQuery>;

export const ImportResult = Type.Object({
  componentsInserted: Type.Integer(),
  firstImportedId: Type.Union([Type.String(), Type.Null()], { description: 'Developer ID of the first new component' }),
});
