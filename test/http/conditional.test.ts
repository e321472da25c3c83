import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { servicesFor } from '../../src/services.js';
import { anotherServer, apiClient, createWorkspace, setupApp, withFilter } from '../helpers/app.js';
import { onPostgres } from '../helpers/database.js';
import { cachedSerializers } from '../helpers/serializers.js';
import { waitFor } from '../helpers/wait.js';

const ctx = await setupApp();

/**
 * On PostgreSQL a server hears of another's write through the database's notification, a moment
 * after it commits; until then it may answer for the old revision. Asks again while it does.
 */
async function heard<T extends { headers: Record<string, unknown> }>(ask: () => Promise<T>, old: string): Promise<T> {
  let res = await ask();
  if (onPostgres() && etagOf(res) === old) {
    await waitFor(async () => {
      res = await ask();
      return etagOf(res) !== old;
    }, `an ETag other than ${old}`);
  }
  return res;
}

/** Two more servers on the same database: one sharing the handle, one with its own connection. */
const sharedHandle = await buildApp({
  config: ctx.config,
  database: ctx.database,
  services: servicesFor(ctx.config, ctx.database),
  logger: false,
  buildSerializer: cachedSerializers,
});
await sharedHandle.ready();
const { app: ownHandle } = await anotherServer(ctx);
afterAll(async () => {
  await sharedHandle.close();
});

const etagOf = (res: { headers: Record<string, unknown> }) => String(res.headers.etag);

describe('conditional GETs', () => {
  it('GET /v2/statuses has an ETag; If-None-Match with it is a 304 with an empty body', async () => {
    const { api } = await createWorkspace(ctx);
    const first = await api.get('statuses');
    expect(first.status).toBe(200);
    const etag = etagOf(first);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect((await api.get('statuses')).headers.etag).toBe(etag);

    const again = await api.get('statuses', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.raw.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['x-request-id']).toBeTruthy();
    // A browser keeps the body but asks again each time (the web app's polling); a shared cache
    // keeps nothing, as the answer depends on who asks.
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(again.headers['cache-control']).toBe('private, no-cache');
  });

  it('understands weak tags, lists of tags and *', async () => {
    const { api } = await createWorkspace(ctx);
    const etag = etagOf(await api.get('variants'));
    expect((await api.get('variants', { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await api.get('variants', { 'if-none-match': `"other", ${etag}` })).status).toBe(304);
    expect((await api.get('variants', { 'if-none-match': '*' })).status).toBe(304);
    expect((await api.get('variants', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('a write changes the ETag, and the old one then gets a 200 with the new body', async () => {
    const { api } = await createWorkspace(ctx);
    const before = etagOf(await api.get('statuses'));
    const statuses = [
      { id: 'NONE', name: 'Draft' },
      { id: 'DONE', name: 'Done' },
    ];
    expect((await api.put('statuses', { statuses })).status).toBe(200);
    const after = await api.get('statuses', { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(statuses);
    expect(etagOf(after)).not.toBe(before);
    expect((await api.get('statuses', { 'if-none-match': etagOf(after) })).status).toBe(304);
  });

  it('a write to one resource changes the ETag of the others too, as they may refer to it', async () => {
    const { api } = await createWorkspace(ctx);
    const before = etagOf(await api.get('componentFolders'));
    expect((await api.post('variants', { variants: [{ name: 'French' }] })).status).toBe(201);
    expect((await api.get('componentFolders', { 'if-none-match': before })).status).toBe(200);
  });

  it('a refused write leaves the ETag as it was', async () => {
    const { api } = await createWorkspace(ctx);
    const before = etagOf(await api.get('variants'));
    const res = await api.post('variants', { variants: [{ name: 'Fine' }, { name: 'Bad', developerId: 'all' }] });
    expect(res.status).toBe(400);
    expect((await api.get('variants', { 'if-none-match': before })).status).toBe(304);
  });

  it('servers sharing one database give the same ETag, and none serves a stale body after a write elsewhere', async () => {
    const { key, api } = await createWorkspace(ctx);
    const servers = [apiClient(sharedHandle, key), apiClient(ownHandle, key)];
    const etag = etagOf(await api.get('variants'));
    for (const server of servers) {
      const res = await server.get('variants');
      expect(etagOf(res)).toBe(etag);
      expect((await server.get('variants', { 'if-none-match': etag })).status).toBe(304);
    }
    expect((await servers[1]?.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }))?.status).toBe(
      201,
    );
    const fresh = await heard(() => api.get('variants', { 'if-none-match': etag }), etag);
    expect(fresh.status).toBe(200);
    expect(fresh.body.map((v: { id: string }) => v.id)).toEqual(['fr']);
    for (const server of servers) {
      const res = await heard(() => server.get('variants'), etag);
      expect(etagOf(res)).toBe(etagOf(fresh));
      expect(res.body).toEqual(fresh.body);
    }
  });

  it('a different query string is a different ETag; the order of parameters and of filter keys is not', async () => {
    const { api } = await createWorkspace(ctx);
    const plain = etagOf(await api.get('statuses'));
    const withQuery = etagOf(await api.get('statuses?a=1&b=2'));
    expect(withQuery).not.toBe(plain);
    expect(etagOf(await api.get('statuses?a=1&b=3'))).not.toBe(withQuery);
    expect(etagOf(await api.get('statuses?b=2&a=1'))).toBe(withQuery);

    const filter = etagOf(await api.get(withFilter('statuses', { folders: [], variants: ['fr'], statuses: [] })));
    expect(filter).not.toBe(plain);
    expect(etagOf(await api.get(withFilter('statuses', { statuses: [], folders: [], variants: ['fr'] })))).toBe(filter);
    expect(etagOf(await api.get(withFilter('statuses', { folders: [], variants: ['es'], statuses: [] })))).not.toBe(
      filter,
    );
    expect(etagOf(await api.get('variants'))).not.toBe(plain);
  });

  it("workspace B's ETag differs from A's for the same request, and A's tag is no 304 for B", async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    const etagA = etagOf(await a.api.get('statuses'));
    const etagB = etagOf(await b.api.get('statuses'));
    expect(etagB).not.toBe(etagA);
    expect((await a.api.put('statuses', { statuses: [{ id: 'A_ONLY', name: 'A only' }] })).status).toBe(200);
    const newA = await a.api.get('statuses');
    const fromB = await b.api.get('statuses', { 'if-none-match': etagOf(newA) });
    expect(fromB.status).toBe(200);
    expect(fromB.body).toHaveLength(4);
  });

  it('gives no ETag to errors', async () => {
    const res = await apiClient(ctx.app, 'cdk_wrong').get('statuses');
    expect(res.status).toBe(401);
    expect(res.headers.etag).toBeUndefined();
  });

  it('gives no ETag to a 400 of a keyed GET either', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.get(withFilter('components', { statuses: ['NO_SUCH_STATUS'] }));
    expect(res.status).toBe(400);
    expect(res.headers.etag).toBeUndefined();
  });
});
