import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, ok, type Workspace } from '../../helpers/app.js';
import { seed } from '../exports/helpers.js';
import { setSigningKey, setupWebhooksApp, silentLog } from '../webhooks/helpers.js';
import { startReceiver } from '../webhooks/receiver.js';

const ctx = await setupWebhooksApp();
const receiver = await startReceiver();
const worker = ctx.services.webhooks.worker(silentLog);
worker.start();
afterAll(() => worker.stop());

/** A public GET of the delivery routes: no key, as an app sends it. */
const fetchPublic = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

async function released(): Promise<{ ws: Workspace; token: string }> {
  const ws = await createWorkspace(ctx);
  await seed(ws);
  await ok(ws.api.post('projects', { projects: [{ name: 'Mobile', developerId: 'mobile' }] }));
  await ok(ws.api.post('textItems', { projectId: 'mobile', textItems: [{ developerId: 'm-title', text: 'Mobile' }] }));
  await ok(ws.api.post('releases', { name: 'r1', filter: { statuses: [] } }));
  const made = await ok(
    ws.api.post('distributions', {
      name: 'web-app',
      projects: ['web', '_library'],
      formats: ['json_i18next', 'android'],
    }),
  );
  expect(made.token).toMatch(/^cdd_/);
  return { ws, token: made.token };
}

describe('delivery: releases to apps through read-only tokens', () => {
  it('serves a pinned file with the export bytes, immutable for a year, to any origin, compressed', async () => {
    const { ws, token } = await released();
    const exported = await ws.api.get(
      `textItems/export?format=json_i18next&variantId=fr&release=r1&filter=${encodeURIComponent(JSON.stringify({ projects: [{ id: 'web' }] }))}`,
    );
    const res = await fetchPublic(`/delivery/${token}/r1/fr/json_i18next/web`, { origin: 'https://app.example' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(exported.raw.body);
    expect(res.headers.etag).toBe(exported.headers.etag);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-expose-headers'])).toContain('ETag');
    const library = await fetchPublic(`/delivery/${token}/r1/base/android/_library`, { 'accept-encoding': 'br, gzip' });
    expect(library.statusCode).toBe(200);
    expect(library.headers['content-encoding']).toBe('br');
    const gz = await fetchPublic(`/delivery/${token}/r1/base/android/_library`, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(
      (await ws.api.get('components/export?format=android&release=r1')).raw.body,
    );
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: `/delivery/${token}/r1/fr/json_i18next/web`,
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('GET');
  });

  it('moves latest only on a publish, revalidated by ETag, with the webhook event release.published', async () => {
    const { ws, token } = await released();
    await setSigningKey(ws);
    await ok(
      ws.api.post('webhooks', {
        webhooks: [{ name: 'CDN', url: receiver.url('/cdn'), events: ['release.published'] }],
      }),
    );
    const url = `/delivery/${token}/latest/base/json_i18next/web`;
    expect((await fetchPublic(url)).statusCode).toBe(404);
    await ok(ws.api.post('distributions/web-app/publish', { release: 'r1' }));
    const first = await fetchPublic(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=30, must-revalidate');
    const etag = String(first.headers.etag);
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'greet', text: 'Hello again' }] }));
    await ok(ws.api.post('releases', { name: 'r2', filter: { statuses: [] } }));
    // A new release is not `latest` until it is published.
    expect((await fetchPublic(url, { 'if-none-match': etag })).statusCode).toBe(304);
    await ok(ws.api.post('distributions/web-app/publish', { release: 'r2' }));
    const moved = await fetchPublic(url, { 'if-none-match': etag });
    expect(moved.statusCode).toBe(200);
    expect(JSON.parse(moved.body).greet).toBe('Hello again');
    expect(JSON.parse(first.body).greet).not.toBe('Hello again');
    const history = await ok(ws.api.get('history?kind=distribution'));
    expect(history.changes.map((c: any) => [c.action, c.developerId, c.fields.release?.after ?? null])).toEqual([
      ['published', 'web-app', 'r2'],
      ['published', 'web-app', 'r1'],
      ['created', 'web-app', null],
    ]);
    // Its making names what it delivers (and never the token).
    expect(history.changes[2].fields).toEqual({
      projects: { before: null, after: ['web', '_library'] },
      formats: { before: null, after: ['json_i18next', 'android'] },
    });
    // The webhook subscribed to release.published gets both publishes, and no text event.
    // Two events and the webhook's test call, in all.
    await receiver.waitFor(3);
    const events = receiver.events('/cdn').map((r) => [r.body.event, r.body.data.changes[0].fields.release.after]);
    expect(events).toEqual([
      ['release.published', 'r1'],
      ['release.published', 'r2'],
    ]);
    // A release served by a distribution cannot be deleted.
    const refused = await ws.api.delete('releases/r2', undefined);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('web-app');
    expect((await ws.api.delete('releases/r1', undefined)).status).toBe(200);
  });

  it('lists what a token can fetch, with pinned URLs and hashes that match the files', async () => {
    const { token } = await released();
    const res = await fetchPublic(`/delivery/${token}/r1/manifest.json`);
    expect(res.statusCode).toBe(200);
    const manifest = JSON.parse(res.body);
    expect(manifest.release).toBe('r1');
    const keys = manifest.files.map((f: any) => `${f.project}/${f.variant}/${f.format}`);
    expect(keys).toContain('web/fr/json_i18next');
    expect(keys).toContain('_library/ru/android');
    expect(keys.some((k: string) => k.startsWith('mobile/'))).toBe(false);
    for (const f of manifest.files.slice(0, 6)) {
      const file = await fetchPublic(f.url);
      expect(file.statusCode, f.url).toBe(200);
      expect(file.headers.etag).toBe(f.etag);
      expect(file.rawPayload.length).toBe(f.bytes);
    }
  });

  it('keeps a token to its projects and formats, away from the API, and stops it on revoke', async () => {
    const { ws, token } = await released();
    expect((await fetchPublic(`/delivery/${token}/r1/base/json_i18next/mobile`)).statusCode).toBe(404);
    expect((await fetchPublic(`/delivery/${token}/r1/base/arb/web`)).statusCode).toBe(404);
    expect((await fetchPublic(`/delivery/${token}/r1/de/json_i18next/web`)).statusCode).toBe(404);
    expect((await fetchPublic(`/delivery/cdd_nope/r1/base/json_i18next/web`)).statusCode).toBe(404);
    // Another workspace's release of the same name is not this token's.
    const other = await createWorkspace(ctx);
    await ok(other.api.post('releases', { name: 'mine' }));
    expect((await fetchPublic(`/delivery/${token}/mine/base/json_i18next/web`)).statusCode).toBe(404);
    // The token is no API key: it can neither read nor write through /v2.
    const asKey = apiClient(ctx.app, token);
    expect((await asKey.get('textItems')).status).toBe(401);
    expect((await asKey.patch('textItems', { updates: [{ developerId: 'greet', text: 'x' }] })).status).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/delivery/${token}/r1/base/json_i18next/web` })).statusCode,
    ).toBe(404);
    // Only admins manage distributions.
    const editorEmail = `ed-${ws.id}@example.com`;
    await ctx.services.accounts.createUser({ workspaceId: ws.id, email: editorEmail, name: 'Ed', role: 'editor' });
    const editor = apiClient(
      ctx.app,
      (await ctx.services.accounts.createKey({ workspaceId: ws.id, email: editorEmail })).key,
    );
    expect((await editor.get('distributions')).status).toBe(403);
    expect((await editor.post('distributions/web-app/publish', { release: 'r1' })).status).toBe(403);

    expect((await fetchPublic(`/delivery/${token}/r1/base/json_i18next/web`)).statusCode).toBe(200);
    await ok(ws.api.delete('distributions/web-app', undefined));
    expect((await fetchPublic(`/delivery/${token}/r1/base/json_i18next/web`)).statusCode).toBe(404);
    const listed = await ok(ws.api.get('distributions'));
    expect(listed.distributions[0]).toMatchObject({ name: 'web-app', revoked: true });
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('refuses a second distribution of the same name, revoked or not, and records nothing', async () => {
    const { ws } = await released();
    const again = { name: 'web-app', projects: ['web'], formats: ['android'] };
    const taken = await ws.api.post('distributions', again);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('name: a distribution named web-app already exists');
    await ok(ws.api.delete('distributions/web-app', undefined));
    expect((await ws.api.post('distributions', again)).status).toBe(409);
    const { changes } = await ok(ws.api.get('history?kind=distribution'));
    expect(changes.map((c: any) => c.action)).toEqual(['deleted', 'created']);
    // The revocation says what stopped being delivered.
    expect(changes[0].fields).toEqual({
      projects: { before: ['web', '_library'], after: null },
      formats: { before: ['json_i18next', 'android'], after: null },
    });
    expect((await ok(ws.api.get('distributions'))).distributions).toHaveLength(1);
  });

  it('replaces a token: the old one stops at once, the new one works, recorded; admins of its own workspace only', async () => {
    const { ws, token } = await released();
    await ok(ws.api.post('distributions/web-app/publish', { release: 'r1' }));
    const file = (t: string, release = 'r1') => fetchPublic(`/delivery/${t}/${release}/base/json_i18next/web`);
    const before = await file(token);
    expect(before.statusCode).toBe(200);

    const reissued = await ws.api.post('distributions/web-app/token', undefined);
    expect(reissued.status).toBe(200);
    const fresh = reissued.body.token as string;
    expect(fresh).toMatch(/^cdd_/);
    expect(fresh).not.toBe(token);
    // The distribution itself is unchanged: its projects, formats and `latest`.
    expect(reissued.body).toMatchObject({
      name: 'web-app',
      projects: ['web', '_library'],
      formats: ['json_i18next', 'android'],
      release: 'r1',
      revoked: false,
    });
    expect((await file(token)).statusCode).toBe(404);
    expect((await fetchPublic(`/delivery/${token}/r1/manifest.json`)).statusCode).toBe(404);
    const after = await file(fresh);
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(before.body);
    expect((await file(fresh, 'latest')).body).toBe(before.body);
    expect(JSON.parse((await fetchPublic(`/delivery/${fresh}/r1/manifest.json`)).body).distribution).toBe('web-app');

    // In the history, without the token: the first characters of the hashes, old and new.
    const history = await ok(ws.api.get('history?kind=distribution'));
    const [change] = history.changes;
    expect(change).toMatchObject({ action: 'updated', developerId: 'web-app' });
    expect(change.fields.token.before).toMatch(/^sha256:[0-9a-f]{8}$/);
    expect(change.fields.token.after).toMatch(/^sha256:[0-9a-f]{8}$/);
    expect(change.fields.token.after).not.toBe(change.fields.token.before);
    expect(JSON.stringify(history)).not.toContain(fresh);
    expect(JSON.stringify(await ok(ws.api.get('distributions')))).not.toContain(fresh);

    // Not an editor's; another workspace's admin finds no such distribution.
    const editorEmail = `ed2-${ws.id}@example.com`;
    await ctx.services.accounts.createUser({ workspaceId: ws.id, email: editorEmail, name: 'Ed', role: 'editor' });
    const editor = apiClient(
      ctx.app,
      (await ctx.services.accounts.createKey({ workspaceId: ws.id, email: editorEmail })).key,
    );
    expect((await editor.post('distributions/web-app/token', undefined)).status).toBe(403);
    const other = await createWorkspace(ctx);
    expect((await other.api.post('distributions/web-app/token', undefined)).status).toBe(404);
    expect((await file(fresh)).statusCode).toBe(200);

    // Unknown and revoked distributions: 404, and a revoked one stays revoked.
    expect((await ws.api.post('distributions/nope/token', undefined)).status).toBe(404);
    await ok(ws.api.delete('distributions/web-app', undefined));
    const revoked = await ws.api.post('distributions/web-app/token', undefined);
    expect(revoked.status).toBe(404);
    expect((await file(fresh)).statusCode).toBe(404);
    // Made, published, its token replaced, revoked; revoking it again writes nothing.
    await ok(ws.api.delete('distributions/web-app', undefined));
    const { changes } = await ok(ws.api.get('history?kind=distribution'));
    expect(changes.map((c: any) => c.action)).toEqual(['deleted', 'updated', 'published', 'created']);
    // Revoked while it served r1: the release it stopped serving is named.
    expect(changes[0].fields.release).toEqual({ before: 'r1', after: null });
  });
});
