import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { principalOf, scopeOf, workspaceOf } from '../../http/auth.js';
import { sendContentAddressed } from '../../http/cache/index.js';
import { DeveloperIds, developerIdsBody, Success, withErrors } from '../../http/schemas.js';
import { type PinsService, pinnedRelease } from '../releases/pins.service.js';
import { hasRelease } from '../releases/releases.service.js';
import { IfMatchHeader, parseIfMatch } from '../texts/index.js';
import {
  InstanceRecord,
  InstancesQuery,
  ListQuery,
  PlaceInstanceBody,
  RowsPage,
  RowsQuery,
  TextItemRecord,
  textItemSchemas,
} from './text-items.schemas.js';
import type { TextItemsService } from './text-items.service.js';

/** RFC 9745 `Deprecation` (the boolean form of the draft clients know) and where to go instead. */
const DEPRECATION_HEADERS = {
  deprecation: 'true',
  link: '</docs#/textItems/patchTextItems>; rel="deprecation"; type="text/html", </v2/textItems>; rel="successor-version"',
};

export const textItemsRoutes: FastifyPluginAsyncTypebox<{
  textItems: TextItemsService;
  pins: Pick<PinsService, 'forRead'>;
  limits: Limits;
}> = async (app, { textItems, pins, limits }) => {
  const { CreateBody, UpdateBody, PutBody } = textItemSchemas(limits);

  app.get(
    '/textItems',
    {
      // Wrapped by the HTTP cache (src/http/cache/index.ts): ETag, 304, kept bytes, one rendering per burst.
      // With `release=`, the handler answers the release's bytes under an ETag that hashes them.
      config: { cache: true, ownEtag: hasRelease },
      // An API key's read of pinned projects reads their release (docs/releases.md#pins).
      preHandler: pinnedRelease(pins),
      schema: {
        tags: ['textItems'],
        summary: 'List text items: one record per base text, variant value and plural form',
        description:
          'Without `projects` or `bases` in the filter: every project and no base items. `statuses` and `assignee` filter project items only. Linked instances show their component’s text, plurals and variant text.',
        querystring: ListQuery,
        response: withErrors({ 200: Type.Array(TextItemRecord) }),
      },
    },
    async (request, reply) => {
      const { workspaceId, revision } = principalOf(request);
      if (request.query.release !== undefined) {
        return sendContentAddressed(
          request,
          reply,
          await textItems.releaseListBody(workspaceId, request.query, limits.filterIds),
        );
      }
      const body = await textItems.listBody(workspaceId, revision, request.query, limits.filterIds);
      // Bytes already written: the response schema only documents them (why: docs/components.md, Performance).
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.get(
    '/textItems/rows',
    {
      // Wrapped by the HTTP cache (src/http/cache/index.ts): ETag, 304, kept bytes, one rendering per burst.
      config: { cache: true },
      schema: {
        tags: ['textItems'],
        summary: 'One page of a project’s list, as the web app shows it',
        description:
          'The items of one project that pass the filters, sorted, a page at a time: `offset` jumps to a position, `cursor` (a page’s `nextCursor`) continues after that page’s last row even while items are added or removed before it. Each row has only what a list shows. `total` counts the filtered items. See docs/app-list.md.',
        querystring: RowsQuery,
        response: withErrors({ 200: RowsPage }),
      },
    },
    (request) => {
      const { workspaceId, revision } = principalOf(request);
      return textItems.rows(workspaceId, revision, request.query, 500);
    },
  );

  app.post(
    '/textItems',
    {
      schema: {
        tags: ['textItems'],
        summary: 'Create text items in a project or a base, all or none',
        description:
          'Give exactly one of `projectId` and `baseId`. An item without `developerId` gets a slug of the first words of its text, with `-2`, `-3`... on collision. New items go to the end of the project order.',
        body: CreateBody,
        response: withErrors({ 201: DeveloperIds }, 409),
      },
    },
    async (request, reply) => {
      const developerIds = await textItems.create(scopeOf(request), request.body);
      return reply.status(201).send({ developerIds });
    },
  );

  app.patch(
    '/textItems',
    {
      schema: {
        operationId: 'patchTextItems',
        tags: ['textItems'],
        summary: 'Update text items, all or none; only provided fields change',
        description:
          'As PATCH /components, with `blockId` (null: out of its block) instead of `folderId`. The text and plurals of a linked instance are its component’s: change them on the component.',
        headers: IfMatchHeader,
        body: UpdateBody,
        response: withErrors({ 200: Success }, 404, 412),
      },
    },
    async (request) => {
      await textItems.update(scopeOf(request), request.body, parseIfMatch(request.headers['if-match']));
      return { success: true as const };
    },
  );

  app.put(
    '/textItems',
    {
      onRequest: async (_request, reply) => {
        reply.headers(DEPRECATION_HEADERS);
      },
      schema: {
        deprecated: true,
        tags: ['textItems'],
        summary: 'Deprecated: update text items (use PATCH /textItems)',
        description:
          'Tags replace, a null assignee removes, `plurals: { upsert, remove }` keeps the forms it does not name. Answers carry a `Deprecation` header.',
        body: PutBody,
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await textItems.put(scopeOf(request), request.body);
      return { success: true as const };
    },
  );

  app.delete(
    '/textItems',
    {
      schema: {
        tags: ['textItems'],
        summary: 'Delete text items, all or none',
        description: 'Items deriving from a deleted base item keep their text and lose `baseTextItemId`.',
        body: developerIdsBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await textItems.remove(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );

  app.get(
    '/textItems/instances',
    {
      schema: {
        tags: ['textItems'],
        summary: 'List the linked instances of a component',
        description:
          'The text items that read their text through from the component, by project developer ID, then developer ID. `status` is the instance’s own.',
        querystring: InstancesQuery,
        response: withErrors({ 200: Type.Array(InstanceRecord) }),
      },
    },
    (request) => textItems.instances(workspaceOf(request), request.query.componentId),
  );

  app.post(
    '/textItems/instances',
    {
      schema: {
        tags: ['textItems'],
        summary: 'Place a library component into a project as a linked instance',
        description:
          'Creates one text item, at the end of the project order (in `blockId` if given), that shows the component’s text, plurals and variant text and follows its edits. It starts with a copy of the component’s notes, tags, status, assignee and character limit, which are then its own. `developerId` defaults to the component’s, with `-2`, `-3`... when taken.',
        body: PlaceInstanceBody,
        response: withErrors({ 201: Type.Object({ developerId: Type.String() }) }, 409),
      },
    },
    async (request, reply) => {
      const developerId = await textItems.place(scopeOf(request), request.body);
      return reply.status(201).send({ developerId });
    },
  );

  app.post(
    '/textItems/instances/detach',
    {
      schema: {
        tags: ['textItems'],
        summary: 'Detach linked instances from their components, all or none',
        description:
          'Each item keeps exactly the text, plurals and variant values it showed, now as its own, and no longer follows the component.',
        body: developerIdsBody(limits.batchItems),
        response: withErrors({ 200: Success }, 404),
      },
    },
    async (request) => {
      await textItems.detach(scopeOf(request), request.body.developerIds);
      return { success: true as const };
    },
  );
};
