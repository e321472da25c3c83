import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Limits } from '../../config.js';
import { principalOf, scopeOf } from '../../http/auth.js';
import { withErrors } from '../../http/schemas.js';
import { fetchParams } from './legacy.access.js';
import { legacyFileRoutes } from './legacy.files.js';
import type { ComponentScope } from './legacy.read.js';
import type { LegacyBody } from './legacy.render.js';
import {
  FetchQuery,
  type FetchQueryInput,
  FolderIdParams,
  FolderMap,
  type LegacyUpdates,
  ProjectIdParams,
  ProjectList,
  TextBody,
  UpdateQuery,
  UpdateResult,
  updateBodies,
  VariableMap,
  VariantList,
} from './legacy.schemas.js';
import type { LegacyService } from './legacy.service.js';

export type LegacyVersion = 'v0' | 'v1';

export interface LegacyRoutesOptions {
  version: LegacyVersion;
  legacy: LegacyService;
  limits: Limits;
}

const TAGS = { tags: ['legacy'], deprecated: true };

const readerOf = (request: FastifyRequest) => {
  const { workspaceId, revision } = principalOf(request);
  return { workspaceId, revision };
};

const writerOf = (request: FastifyRequest) => ({ ...scopeOf(request), revision: principalOf(request).revision });

const variantOf = (variant: string | undefined) =>
  variant === undefined || variant === '' || variant === 'base' ? null : variant;

function send(reply: FastifyReply, body: LegacyBody) {
  if ('json' in body) return reply.type('application/json; charset=utf-8').send(JSON.stringify(body.json));
  if ('written' in body) return reply.type(body.contentType).send(body.written as never);
  return reply.type(body.contentType).send(body.file);
}

/**
 * The deprecated v0 API (at the host root) and v1 API (under `/v1`), registered once per version:
 * thin adapters over the legacy reader and writer. The versions differ in three places: v1 lists
 * projects at `GET /projects` (v0 answers their text there), v1 takes `PUT /components` updates
 * under `data`, and only v1 imports files.
 */
export const legacyRoutes: FastifyPluginAsyncTypebox<LegacyRoutesOptions> = async (app, options) => {
  const { version, legacy, limits } = options;
  const { read: reader, write: writer } = legacy;
  /** Every route: deprecated, tagged `legacy`, the key raw or as `token <KEY>`. */
  const spec = <S extends { response: Record<number, TSchema> }>(summary: string, schema: S, ...errors: number[]) => ({
    config: { auth: 'either' as const },
    // biome-ignore lint/plugin/no-spread-call: forwards this function's own rest parameters (a few status codes)
    schema: { ...TAGS, summary: `${version}: ${summary}`, ...schema, response: withErrors(schema.response, ...errors) },
  });
  const text = <E extends Record<string, TSchema>>(summary: string, extra: E = {} as E) =>
    spec(summary, { querystring: FetchQuery, ...extra, response: { 200: TextBody } }, 403, 404);
  const components = (request: FastifyRequest, reply: FastifyReply, scope: ComponentScope, query: FetchQueryInput) =>
    reader.componentsText(readerOf(request), scope, fetchParams(query)).then((body) => send(reply, body));

  const list = spec('The projects the API can reach (developer mode on)', { response: { 200: ProjectList } });
  const projectList = (request: FastifyRequest) => reader.projectList(principalOf(request).workspaceId);
  app.get('/project-names', list, projectList);
  if (version === 'v1') app.get('/projects', list, projectList);
  else {
    app.get(
      '/projects',
      text('The text of several projects: `{ projects: { <id>: <body> }, exported_at }`'),
      async (request, reply) => send(reply, await reader.projectsText(readerOf(request), fetchParams(request.query))),
    );
  }

  app.get('/projects/:id', text("A project's text", { params: ProjectIdParams }), async (request, reply) =>
    send(reply, await reader.projectText(readerOf(request), request.params.id, fetchParams(request.query))),
  );

  app.get(
    '/projects/:id/components',
    text('The components the project uses', { params: ProjectIdParams }),
    (request, reply) => components(request, reply, { kind: 'project', developerId: request.params.id }, request.query),
  );

  app.get('/components', text('The component library (`root_only`: outside folders)'), (request, reply) =>
    components(request, reply, request.query.root_only ? { kind: 'root' } : { kind: 'all' }, request.query),
  );

  app.get(
    '/component-folders',
    spec('The component folders: `{ <id>: <name> }`', { response: { 200: FolderMap } }),
    (request) => reader.folderMap(principalOf(request).workspaceId),
  );

  app.get(
    '/component-folders/:id/components',
    text('The components directly in a folder', { params: FolderIdParams }),
    (request, reply) => components(request, reply, { kind: 'folder', developerId: request.params.id }, request.query),
  );

  app.get('/variables', spec('The variables, by name', { response: { 200: VariableMap } }), (request) =>
    reader.variableMap(principalOf(request).workspaceId),
  );

  app.get(
    '/variants',
    spec(
      'The variants; with `projectIds[]`, those with text in the projects',
      { querystring: FetchQuery, response: { 200: VariantList } },
      403,
      404,
    ),
    (request) => reader.variantList(readerOf(request), fetchParams(request.query).projectIds),
  );

  const bodies = updateBodies(limits);
  const shape = version === 'v0' ? '`{ <id>: { text, notes?, tags?, plurals? } }`' : '`{ data: { <id>: {...} } }`';
  app.put(
    '/components',
    spec(
      `Update components' text, or a variant's: ${shape}`,
      { querystring: UpdateQuery, body: version === 'v0' ? bodies.v0 : bodies.v1, response: { 200: UpdateResult } },
      403,
      404,
    ),
    async (request) => {
      const body = request.body as Record<string, unknown>;
      const updates = (version === 'v0' ? body : body.data) as LegacyUpdates;
      const path = version === 'v0' ? '' : 'data.';
      return writer.updateComponents(writerOf(request), updates, variantOf(request.query.variant), path);
    },
  );

  if (version === 'v1') await app.register(legacyFileRoutes, { writer, limits, writerOf });
};
