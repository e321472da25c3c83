import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/auth.js';
import { Nullable, Success, withErrors } from '../../http/schemas.js';
import type { ReleasesService } from './releases.service.js';

const closed = { additionalProperties: false } as const;

const Filter = Type.Object(
  {
    projects: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 1000,
        description: 'Developer IDs of projects; absent: every project; empty: no text items',
      }),
    ),
    library: Type.Optional(Type.Boolean({ description: "Whether the library's components are in it (default true)" })),
    folders: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), excludeNestedFolders: Type.Optional(Type.Boolean()) }, closed), {
        maxItems: 1000,
        description: 'Folders of the library (`root`: the components at its root); absent: all',
      }),
    ),
    statuses: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 100,
        description: 'Status keys; absent: `FINAL` only; empty: every status',
      }),
    ),
    variants: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 1000,
        description: 'Variant developer IDs besides the base text; absent: every variant',
      }),
    ),
  },
  closed,
);

const Release = Type.Object({
  name: Type.String(),
  hash: Type.String({ description: "Hex SHA-256 of the release's content" }),
  filter: Filter,
  components: Type.Integer(),
  textItems: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  previous: Nullable(Type.String({ description: 'The release made before it' })),
});

const DiffValue = Type.Object({
  text: Type.String(),
  richText: Nullable(Type.String()),
  plurals: Nullable(Type.Array(Type.Object({ form: Type.String(), text: Type.String() }))),
});
const DiffKey = {
  kind: Type.Enum(['component', 'textItem']),
  id: Type.String(),
  variantId: Nullable(Type.String({ description: 'null: the base text' })),
};
const ReleaseDiff = Type.Object({
  from: Type.String(),
  to: Type.String(),
  added: Type.Array(Type.Object({ ...DiffKey, value: DiffValue })),
  changed: Type.Array(Type.Object({ ...DiffKey, before: DiffValue, after: DiffValue })),
  removed: Type.Array(Type.Object({ ...DiffKey, value: DiffValue })),
});

const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });

export const releasesRoutes: FastifyPluginAsyncTypebox<{ releases: ReleasesService }> = async (app, { releases }) => {
  app.get(
    '/releases',
    {
      // Releases are made and deleted outside the content revision: not kept by the HTTP cache.
      config: { cache: false },
      schema: {
        tags: ['releases'],
        summary: 'List releases, oldest first',
        response: withErrors({ 200: Type.Object({ releases: Type.Array(Release) }) }),
      },
    },
    async (request) => ({ releases: await releases.list(workspaceOf(request)) }),
  );

  app.post(
    '/releases',
    {
      schema: {
        tags: ['releases'],
        summary: 'Freeze the texts a filter selects into a new release',
        description:
          'By default every project and the library, base text and every variant, status `FINAL` only. The name (letters, digits, `.`, `_`, `-`) is unique in the workspace. See docs/releases.md.',
        body: Type.Object({ name: Type.String({ maxLength: 64 }), filter: Type.Optional(Filter) }, closed),
        response: withErrors({ 201: Release }, 403, 409),
      },
    },
    async (request, reply) => {
      const { workspaceId, email } = principalOf(request);
      return reply.status(201).send(await releases.create({ workspaceId, email }, request.body));
    },
  );

  app.get(
    '/releases/diff',
    {
      config: { cache: false },
      schema: {
        tags: ['releases'],
        summary: 'What changed from one release to another, or to the current text',
        description:
          "Per text and variant (`variantId` null: the base text): values added, changed (before and after) and removed. `to=current` (the default) compares with the texts the `from` release's filter selects now.",
        querystring: Type.Object({
          from: Type.String({ minLength: 1, maxLength: 64 }),
          to: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        }),
        response: withErrors({ 200: ReleaseDiff }, 404),
      },
    },
    (request) => releases.diff(workspaceOf(request), request.query.from, request.query.to ?? 'current'),
  );

  app.get(
    '/releases/:name',
    {
      config: { cache: false },
      schema: {
        tags: ['releases'],
        summary: 'Read one release',
        params: NameParams,
        response: withErrors({ 200: Release }, 404),
      },
    },
    (request) => releases.get(workspaceOf(request), request.params.name),
  );

  app.delete(
    '/releases/:name',
    {
      schema: {
        tags: ['releases'],
        summary: 'Delete a release (admins); refused while a distribution serves it',
        params: NameParams,
        response: withErrors({ 200: Success }, 403, 404, 409),
      },
    },
    async (request) => {
      await releases.remove(workspaceOf(request), request.params.name);
      return { success: true as const };
    },
  );
};
