import { type Static, Type } from 'typebox';
import type { Limits } from '../../config.js';

/**
 * Request bodies of the two Swift driver routes, with the configured limits. The v1 body's
 * project and folder lists come in several shapes (ids or config objects): they are checked by
 * swift-driver.legacy.ts, so that a 400 names the element and the problem.
 */
export function swiftDriverSchemas(limits: Limits) {
  const ids = { maxItems: limits.filterIds };
  const Id = Type.String({ minLength: 1 });

  const CliDriverBody = Type.Object(
    {
      components: Type.Optional(
        Type.Object(
          {
            folders: Type.Optional(
              Type.Array(
                Type.Object(
                  { id: Id, excludeNestedFolders: Type.Optional(Type.Boolean()) },
                  { additionalProperties: false },
                ),
                { ...ids, description: 'Folders whose components are wanted (`root`: the library root); none: all' },
              ),
            ),
          },
          { additionalProperties: false },
        ),
      ),
      projects: Type.Optional(
        Type.Array(Type.Object({ id: Id }, { additionalProperties: false }), {
          ...ids,
          description: 'Projects whose text items are wanted; none or empty: every project',
        }),
      ),
      statuses: Type.Optional(Type.Array(Type.String(), { ...ids, description: 'As the fetch filter `statuses`' })),
      integrated: Type.Optional(Type.Boolean({ description: 'As the fetch filter `integrated`' })),
      tags: Type.Optional(
        Type.Object(
          {
            values: Type.Array(Type.String(), ids),
            operator: Type.Optional(Type.Enum(['AND', 'OR'])),
          },
          { additionalProperties: false, description: 'As the fetch filter `tags`' },
        ),
      ),
    },
    { additionalProperties: false },
  );

  const LegacyDriverBody = Type.Object(
    {
      variants: Type.Optional(
        Type.Boolean({ description: 'Whether the client pulls variants (no effect on the file)' }),
      ),
      localeByVariantId: Type.Optional(
        Type.Record(Type.String(), Type.String(), {
          description: 'Variant developer ID (`base` for base text) -> the `.lproj` folder the client writes',
        }),
      ),
      components: Type.Optional(
        Type.Unknown({
          description:
            '`true` (the whole library), or `{ folders?: [id | { id }], root?: boolean | { status } }` as in the client config',
        }),
      ),
      projects: Type.Optional(
        Type.Array(Type.Unknown(), {
          ...ids,
          description: 'Project ids, or `{ id, name?, fileName?, exclude_components? }` as in the client config',
        }),
      ),
    },
    { additionalProperties: false },
  );

  return { CliDriverBody, LegacyDriverBody };
}

type Schemas = ReturnType<typeof swiftDriverSchemas>;
export type CliDriverBody = Static<Schemas['CliDriverBody']>;
export type LegacyDriverBody = Static<Schemas['LegacyDriverBody']>;
