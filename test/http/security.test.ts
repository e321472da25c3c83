import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../helpers/app.js';

/**
 * One security check over every route of the OpenAPI document: no key and a revoked key are 401s,
 * and another workspace's key neither sees nor changes anything of this workspace.
 */
const ctx = await setupApp();
const owner = await createWorkspace(ctx, 'Owner');
const stranger = await createWorkspace(ctx, 'Stranger');
const SECRET = 'TOPSECRET-owner-text';

async function seed(): Promise<void> {
  const { api } = owner;
  const calls = [
    api.post('variants', { variants: [{ name: 'Secret variant', developerId: 'secretvariant', localeCode: 'fr' }] }),
    api.post('variables', { variables: [{ name: 'secretvar', type: 'string', data: { example: SECRET } }] }),
    api.post('componentFolders', { folders: [{ name: 'Secret folder', developerId: 'secretfolder' }] }),
  ];
  for (const call of calls) expect((await call).status).toBe(201);
  const writes = [
    api.post('components', {
      components: [{ developerId: 'secretcomponent', name: 'Secret', text: SECRET, folderId: 'secretfolder' }],
    }),
    api.post('projects', { projects: [{ name: 'Secret project', developerId: 'secretproject', developerMode: true }] }),
  ];
  for (const call of writes) expect((await call).status).toBe(201);
  // A distribution named as the sweep fills `{name}`: a stranger may neither publish to it,
  // replace its token nor revoke it.
  const distribution = await api.post('distributions', {
    name: 'secretproject',
    projects: ['secretproject'],
    formats: ['json_i18next'],
  });
  expect(distribution.status).toBe(201);
  const items = await api.post('textItems', {
    projectId: 'secretproject',
    textItems: [{ developerId: 'secretitem', text: SECRET, variants: [{ variantId: 'secretvariant', text: SECRET }] }],
  });
  expect(items.status).toBe(201);
  const comments = await api.post('comments', {
    comments: [
      { textItemId: 'secretitem', body: SECRET },
      { componentId: 'secretcomponent', variantId: 'secretvariant', body: SECRET },
    ],
  });
  expect(comments.status).toBe(201);
  secretCommentId = comments.body.ids[0];
  const suggestions = await api.post('suggestions', {
    suggestions: [
      { textItemId: 'secretitem', text: `${SECRET} too` },
      { componentId: 'secretcomponent', variantId: 'secretvariant', text: `${SECRET} too` },
    ],
  });
  expect(suggestions.status).toBe(201);
  secretSuggestionId = suggestions.body.ids[0];
}

let secretCommentId = '';
let secretSuggestionId = '';

interface Operation {
  method: string;
  /** The documented path, `{name}` for a parameter. */
  template: string;
  path: string;
  hasBody: boolean;
}

/** Every documented operation that takes a key, with path parameters filled with the owner's ids. */
async function operations(): Promise<Operation[]> {
  const document = (await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, { requestBody?: unknown; security?: unknown[] }>>(
    document.paths,
  )) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (Array.isArray(operation.security) && operation.security.length === 0) continue;
      out.push({
        method: method.toUpperCase(),
        template: path,
        path: path.replace(/\{[^}]+\}/g, (name) =>
          name.includes('folder')
            ? 'secretfolder'
            : path.startsWith('/v2/comments')
              ? secretCommentId
              : path.startsWith('/v2/suggestions')
                ? secretSuggestionId
                : 'secretproject',
        ),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return out;
}

/** A body that names the owner's records in the shapes the batch endpoints take. */
const hostileBody = {
  developerIds: ['secretcomponent', 'secretitem', 'secretvariant', 'secretvar', 'secretfolder', 'secretproject'],
  updates: [{ developerId: 'secretcomponent', text: 'taken over' }],
  projectId: 'secretproject',
  textItemId: 'secretitem',
  componentId: 'secretcomponent',
  // The owner's comment and suggestion, for the routes that take `{ ids }` (read once seeded).
  get ids() {
    return [secretSuggestionId, secretCommentId];
  },
};

const send = async (op: Operation, authorization: string | undefined, body?: object) => {
  const request = {
    method: op.method as 'GET',
    url: op.path,
    headers: authorization === undefined ? {} : { authorization },
    ...(op.hasBody ? { payload: body ?? {} } : {}),
  };
  if (op.path !== '/v2/events') return ctx.app.inject(request);
  // The event stream never ends by itself: its beginning is read, up to the `ready` event.
  const res = await ctx.app.inject({ ...request, payloadAsStream: true });
  let text = '';
  const stream = res.stream();
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.includes('event: ready')) break;
  }
  stream.destroy();
  return { statusCode: res.statusCode, body: text };
};

/**
 * Every route the app's router holds, read from `printRoutes` (its tree of path segments), as
 * `METHOD /path` with the path parameters written the way the OpenAPI document writes them.
 */
function routerRoutes(): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of ctx.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([\s│├└─]*)(\S.*) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods = ''] = match;
    stack.length = indent.length / 4;
    stack.push(segment);
    const path = stack.join('').replace(/\/\//g, '/');
    for (const method of methods.split(', ')) {
      if (method !== 'HEAD') out.push(`${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    }
  }
  return out;
}

await seed();
const all = await operations();

describe('every route that takes a key', () => {
  it('covers the API', () => {
    // The v2 resources, the v0/v1 paths and the Swift driver are all in the document.
    expect(all.length).toBeGreaterThan(60);
    expect(all.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'GET /v2/components',
        'GET /projects/secretproject',
        'POST /v2/webhooks',
        'POST /v2/webhooks/deliveries/redeliver',
        'POST /v2/distributions/secretproject/publish',
        'POST /v2/distributions/secretproject/token',
        'DELETE /v2/distributions/secretproject',
        'POST /v2/import',
        'GET /v2/search',
        'GET /v2/history',
        'PATCH /v2/users/secretproject',
        'GET /v2/session',
        'DELETE /v2/session',
        'GET /v2/keys',
        'GET /v2/comments',
        'GET /v2/comments/counts',
        `GET /v2/comments/${secretCommentId}`,
        'POST /v2/comments',
        'PATCH /v2/comments',
        'POST /v2/comments/resolve',
        'POST /v2/comments/reopen',
        'DELETE /v2/comments',
        'GET /v2/suggestions',
        `GET /v2/suggestions/${secretSuggestionId}`,
        'POST /v2/suggestions',
        'POST /v2/suggestions/accept',
        'POST /v2/suggestions/reject',
        'POST /v2/suggestions/withdraw',
      ]),
    );
  });

  it("leaves out only the app's public routes", async () => {
    // The sweep is the OpenAPI document; a route left out of it (hidden, or public by mistake)
    // must then answer without a key. The web app's files, the docs UI, health and login are.
    const documented = new Set((await operations()).map((o) => `${o.method} ${o.template}`));
    const rest = routerRoutes().filter((route) => !documented.has(route));
    expect(rest.length).toBeLessThan(routerRoutes().length / 2);
    for (const route of rest) {
      const [method = '', path = ''] = route.split(' ');
      const res = await ctx.app.inject({ method: method as 'GET', url: path.replace('*', 'any') });
      expect(res.statusCode, `${route} is not in the sweep but takes a key`).not.toBe(401);
    }
    expect(rest).toEqual(expect.arrayContaining(['GET /healthz', 'POST /v2/session']));
  });

  it('answers 401 without a key', async () => {
    for (const op of all) {
      const res = await send(op, undefined);
      expect(res.statusCode, `${op.method} ${op.path}`).toBe(401);
    }
  });

  it('answers 401 for a revoked key, raw or as `token <KEY>`', async () => {
    const { id, key } = await ctx.services.accounts.createKey({ workspaceId: owner.id, email: owner.email });
    await ctx.services.accounts.revokeKey(id);
    for (const op of all) {
      const res = await send(op, op.path.startsWith('/v2/') ? key : `token ${key}`);
      expect(res.statusCode, `${op.method} ${op.path}`).toBe(401);
    }
  });

  it("never shows or changes another workspace's records to a stranger's key", async () => {
    const before = (await owner.api.get('history?limit=1000')).body;
    const snapshot = async () =>
      Promise.all(
        [
          'components?filter=%7B%22variants%22%3A%5B%7B%22id%22%3A%22all%22%7D%5D%7D',
          'textItems',
          'variants',
          'variables',
          'projects',
          'componentFolders',
          'comments',
          'comments/counts',
          'suggestions',
          'distributions',
        ].map(async (path) => (await owner.api.get(path)).body),
      );
    const state = await snapshot();
    for (const op of all) {
      const authorization = op.path.startsWith('/v2/') ? stranger.key : `token ${stranger.key}`;
      const res = await send(op, authorization, hostileBody);
      expect(res.statusCode, `${op.method} ${op.path}`).not.toBe(401);
      expect(res.statusCode, `${op.method} ${op.path}: ${res.body}`).toBeLessThan(500);
      expect(res.body, `${op.method} ${op.path}`).not.toContain(SECRET);
      expect(res.body, `${op.method} ${op.path}`).not.toContain('secretcomponent');
    }
    expect((await owner.api.get('history?limit=1000')).body).toEqual(before);
    expect(await snapshot()).toEqual(state);
  });
});

describe('security headers on every response', () => {
  const NONE = "default-src 'none'; frame-ancestors 'none'";

  it('API answers, errors and health checks: nosniff, and a policy that loads and frames nothing', async () => {
    const cases = [
      { url: '/v2/statuses', headers: { authorization: owner.key }, status: 200 },
      { url: '/v2/statuses', headers: {}, status: 401 },
      { url: '/v2/nothing-here', headers: { authorization: owner.key }, status: 404 },
      { url: '/v2/openapi.json', headers: {}, status: 200 },
      { url: '/healthz', headers: {}, status: 200 },
      { url: '/projects', headers: { authorization: `token ${owner.key}` }, status: 200 },
    ];
    for (const { url, headers, status } of cases) {
      const res = await ctx.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['content-security-policy'], url).toBe(NONE);
    }
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/v2/variants',
      headers: { authorization: owner.key, 'content-type': 'application/json' },
      payload: '{',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['x-content-type-options']).toBe('nosniff');
    expect(bad.headers['content-security-policy']).toBe(NONE);
  });

  it('the API reference page has its own policy: scripts only from this server', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['content-security-policy']).toMatch(/object-src 'none'/);
  });
});
