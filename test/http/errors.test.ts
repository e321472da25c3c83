import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { servicesFor } from '../../src/services.js';
import { apiClient, createWorkspace, setupApp } from '../helpers/app.js';
import { testDatabaseConfig } from '../helpers/database.js';
import { cachedSerializers } from '../helpers/serializers.js';

const ctx = await setupApp();
const small = await setupApp({ limits: { ...ctx.config.limits, bodyBytes: 1024 } });

/** An app of its own whose log lines are kept, with a route that fails the way a bug would. */
const logLines: string[] = [];
const logged = await (async () => {
  const config = loadConfig({}, { database: testDatabaseConfig(), rateLimitPerMinute: 0 });
  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const services = servicesFor(config, database);
  const app = await buildApp({
    config,
    database,
    services,
    logger: { level: 'trace', stream },
    buildSerializer: cachedSerializers,
  });
  app.get('/v2/boom', { config: { auth: 'v2' } }, async () => {
    throw new Error('secret detail');
  });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database, services, config };
})();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const post = (app: typeof ctx.app, key: string, payload: string, contentType: string) =>
  app.inject({
    method: 'POST',
    url: '/v2/variants',
    headers: { authorization: key, 'content-type': contentType },
    payload,
  });

describe('request ids', () => {
  it('every response carries x-request-id, a fresh one each time, equal to requestId of an error body', async () => {
    const { api } = await createWorkspace(ctx);
    const responses = [
      await api.get('statuses'),
      await api.get('/healthz'),
      await api.get('/readyz'),
      await api.get('/docs'),
      await api.get('/v2/openapi.json'),
      await apiClient(ctx.app, null).get('statuses'),
      await api.get('/nowhere'),
      await api.post('variants', { variants: [{}] }),
    ];
    const ids = responses.map((res) => res.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    for (const res of responses.filter((r) => r.status >= 400)) {
      expect(res.body.requestId).toBe(res.headers['x-request-id']);
    }
  });

  it('is chosen by the server, not taken from the client', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.get('/nowhere', { 'x-request-id': 'client-chosen' });
    expect(res.headers['x-request-id']).not.toBe('client-chosen');
    expect(res.body.requestId).toBe(res.headers['x-request-id']);
  });
});

describe('client errors', () => {
  it('an unknown route is a 404 JSON error, with or without a key', async () => {
    const { api } = await createWorkspace(ctx);
    for (const [method, url] of [
      ['GET', '/v2/nothing'],
      ['POST', '/v2/statuses'],
      ['GET', '/v3/statuses'],
    ] as const) {
      const res = await api.call(method, url, method === 'POST' ? {} : undefined);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        message: `Route ${method} ${url} not found`,
        code: 'not_found',
        requestId: res.headers['x-request-id'],
      });
    }
    expect((await apiClient(ctx.app, null).get('/v2/nothing?x=1')).body.message).toBe(
      'Route GET /v2/nothing not found',
    );
  });

  it('a malformed URL is a 400 of the same shape, with the request id', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.get('/v2/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.body).toEqual({
      message: "'/v2/%E0%A4%A' is not a valid url component",
      code: 'bad_request',
      requestId: res.headers['x-request-id'],
    });
  });

  it('a body that is not JSON is a 415', async () => {
    const { key } = await createWorkspace(ctx);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await post(ctx.app, key, '{"variants":[{"name":"X"}]}', type);
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({
        message: 'body: Content-Type must be application/json',
        code: 'unsupported_media_type',
      });
    }
  });

  it('malformed or empty JSON is a 400 that names the body', async () => {
    const { key, api } = await createWorkspace(ctx);
    const broken = await post(ctx.app, key, '{"variants": [', 'application/json');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^body: is not valid JSON/);
    expect(broken.json().code).toBe('bad_request');
    const empty = await post(ctx.app, key, '', 'application/json');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('body: must not be empty when Content-Type is application/json');
    expect((await api.get('variants')).body).toEqual([]);
  });

  it('a value outside a union of literals names every allowed value, not only the first', async () => {
    const { api } = await createWorkspace(ctx);
    const roles = 'role must be one of: "admin", "editor", "commenter", "viewer"';
    const added = await api.post('users', { email: 'owner@example.com', role: 'owner' });
    expect([added.status, added.body.message]).toEqual([400, roles]);
    expect((await api.post('users', { email: 'ed@example.com', role: 'editor' })).status).toBe(201);
    const changed = await api.patch('users/ed@example.com', { role: 'boss' });
    expect([changed.status, changed.body.message]).toEqual([400, roles]);
    // A wrong type is still reported as such.
    const typed = await api.post('users', { email: 'n@example.com', role: 3 });
    expect(typed.status).toBe(400);
    expect(typed.body.message).toMatch(/^role must be/);
  });

  it('a body over the limit is a 413, one under it is served', async () => {
    const { key, api } = await createWorkspace(small);
    const name = 'x'.repeat(2000);
    const res = await post(small.app, key, JSON.stringify({ variants: [{ name }] }), 'application/json');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      message: 'body: request body is larger than the limit',
      code: 'payload_too_large',
    });
    expect((await api.post('variants', { variants: [{ name: 'Small enough' }] })).status).toBe(201);
    expect((await api.get('variants')).body).toHaveLength(1);
  });

  it.each([
    [{ variants: [{}] }, 'variants[0].name is required'],
    [{ variants: [{ name: 'A' }, { description: 'no name' }] }, 'variants[1].name is required'],
    [{ variants: [{ name: 'A', colour: 'red' }] }, 'variants[0].colour is not a known field'],
    [{ variants: [{ name: 'A' }], extra: true }, 'extra is not a known field'],
    [{}, 'variants is required'],
    [{ variants: [{ name: 7 }] }, 'variants[0].name must be string'],
    [[], 'body must be object'],
  ])('a schema error names the field: %j -> %s', async (body, message) => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('variants', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message, code: 'bad_request', requestId: res.headers['x-request-id'] });
    expect((await api.get('variants')).body).toEqual([]);
  });
});

describe('faults of ours', () => {
  it('a 500 has a generic message with the request id; the details stay in the log', async () => {
    const { key } = await createWorkspace(logged);
    const res = await apiClient(logged.app, key).get('/v2/boom');
    expect(res.status).toBe(500);
    const requestId = res.headers['x-request-id'];
    expect(res.body).toEqual({
      message: `Internal server error (request id ${requestId})`,
      code: 'internal',
      requestId,
    });
    expect(res.raw.body).not.toContain('secret detail');
    expect(logLines.some((line) => line.includes('secret detail') && line.includes(String(requestId)))).toBe(true);
  });

  it('no log line ever contains a key, valid, invalid or in the `token` form, also on error paths', async () => {
    const { key } = await createWorkspace(logged);
    const wrong = 'cdk_thisIsNotARealKeyButStillSecret0123456789';
    const before = logLines.length;
    for (const authorization of [key, `token ${key}`, wrong, `token ${wrong}`]) {
      const client = apiClient(logged.app, authorization);
      await client.get('statuses');
      await client.get('/v2/boom');
      await client.get('/v2/nothing');
      await client.post('variants', { variants: [{ colour: 'red' }] });
      await client.put('statuses', { statuses: [{ id: 'A', name: 'A' }] });
      await logged.app.inject({ method: 'GET', url: '/token-check', headers: { authorization } });
      await post(logged.app, authorization, '{"broken', 'application/json');
      await post(logged.app, authorization, 'plain', 'text/plain');
    }
    const lines = logLines.slice(before);
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) {
      expect(line).not.toContain(key);
      expect(line).not.toContain(wrong);
    }
  });
});

describe('health', () => {
  it('GET /healthz and GET /readyz answer 200 without a key', async () => {
    const health = await apiClient(ctx.app, null).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await apiClient(ctx.app, null).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('GET /readyz answers 503 when the database is unreachable, while /healthz stays 200', async () => {
    const database = openDatabase(testDatabaseConfig());
    const app = await buildApp({
      config: ctx.config,
      database,
      services: servicesFor(ctx.config, database),
      logger: false,
      buildSerializer: cachedSerializers,
    });
    await app.ready();
    // Kysely connects lazily and only closes what it has opened: use the handle before closing it.
    await migrateToLatest(database.db);
    await database.close();
    try {
      const ready = await apiClient(app, null).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'database unreachable' });
      expect((await apiClient(app, null).get('/healthz')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('OpenAPI and the reference', () => {
  it('GET /v2/openapi.json describes every endpoint, version 1.0.0', async () => {
    const res = await apiClient(ctx.app, null).get('/v2/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const expected: Record<string, string[]> = {
      '/v2/statuses': ['get', 'put'],
      '/v2/variants': ['get', 'post', 'patch', 'delete'],
      '/v2/variables': ['get', 'post', 'patch', 'delete'],
      '/v2/componentFolders': ['get', 'post', 'patch', 'delete'],
      '/v2/users': ['get', 'post'],
      '/token-check': ['get'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
      for (const method of methods) {
        expect(Object.keys(doc.paths[path][method].responses), `${method} ${path}`).toContain('401');
      }
    }
    expect(doc.paths['/healthz']).toBeUndefined();
  });

  it('GET /v2/openapi.json lists 413/415 on body routes and 304 on keyed GETs', async () => {
    const doc = (await apiClient(ctx.app, null).get('/v2/openapi.json')).body;
    const bodyRoutes: Array<[string, string]> = [
      ['/v2/variants', 'patch'],
      ['/v2/componentFolders', 'delete'],
      ['/v2/styleguides', 'patch'],
      ['/v2/statuses', 'put'],
    ];
    for (const [path, method] of bodyRoutes) {
      const responses = doc.paths[path][method].responses;
      expect(Object.keys(responses), `${method} ${path}`).toEqual(expect.arrayContaining(['413', '415']));
      expect(responses['415'].content['application/json'].schema).toBeDefined();
    }
    for (const path of ['/v2/statuses', '/v2/variants', '/v2/users']) {
      const responses = doc.paths[path].get.responses;
      expect(responses['304'], path).toBeDefined();
      expect(responses['304'].content, path).toBeUndefined();
      expect(Object.keys(responses), path).not.toContain('415');
    }
    expect(Object.keys(doc.paths['/token-check'].get.responses)).not.toContain('304');
  });

  it('/docs serves the interactive reference as HTML', async () => {
    let res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    for (let hops = 0; hops < 3 && res.statusCode >= 300 && res.statusCode < 400; hops += 1) {
      res = await ctx.app.inject({ method: 'GET', url: String(res.headers.location) });
    }
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
  });
});
