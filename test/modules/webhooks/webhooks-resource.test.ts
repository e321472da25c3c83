import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../../src/services.js';
import { createWorkspace } from '../../helpers/app.js';
import { SIGNING_KEY, setSigningKey, setupWebhooksApp } from './helpers.js';
import { startReceiver, verifiedBy } from './receiver.js';

const ctx = await setupWebhooksApp();
const receiver = await startReceiver();

describe('the signing key', () => {
  it('is shown by its last four characters only, and must be 32 characters or more', async () => {
    const { api } = await createWorkspace(ctx);
    expect((await api.get('webhooks/signingKey')).body).toEqual({ configured: false, lastFour: null });
    const short = await api.put('webhooks/signingKey', { signingKey: 'x'.repeat(31) });
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/signingKey: must be at least 32 characters/);
    expect((await api.put('webhooks/signingKey', { signingKey: `${'k'.repeat(32)}WXYZ` })).status).toBe(200);
    expect((await api.get('webhooks/signingKey')).body).toEqual({ configured: true, lastFour: 'WXYZ' });
    const history = (await api.get('history?kind=webhook')).body.changes;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      developerId: 'signingKey',
      action: 'created',
      fields: { lastFour: { before: null, after: 'WXYZ' } },
    });
    expect(JSON.stringify(history)).not.toContain('kkkk');
  });

  it('must be set before a webhook is created', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('webhooks', { webhooks: [{ name: 'Build', url: receiver.url(), events: ['*'] }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/signingKey: set the workspace signing key/);
  });
});

describe('creating webhooks', () => {
  it('sends a signed test delivery first, then saves and lists them', async () => {
    const workspace = await createWorkspace(ctx);
    const { api } = workspace;
    await setSigningKey(workspace);
    const before = receiver.received.length;
    const res = await api.post('webhooks', {
      webhooks: [
        { name: 'Build app', url: receiver.url('/build'), events: ['textItems.updated', 'components.published'] },
        { name: 'Chat', url: receiver.url('/chat'), events: ['*'], developerId: 'chat', enabled: false },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ developerIds: ['build-app', 'chat'] });
    const tests = receiver.received.slice(before);
    expect(tests.map((t) => t.path).sort()).toEqual(['/build', '/chat']);
    for (const test of tests) {
      expect(verifiedBy(SIGNING_KEY, test)).toBe(true);
      expect(test.raw).toBe(JSON.stringify(test.body));
      expect(test.headers['content-type']).toBe('application/json');
      expect(test.headers['user-agent']).toMatch(/copydesk/);
      expect(test.headers['x-ditto-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number(test.headers['x-ditto-timestamp'])).toBeGreaterThan(Date.now() - 60_000);
      expect(test.body).toEqual({
        event: 'webhook.test',
        data: {
          id: expect.any(String),
          workspaceId: String(workspace.id),
          at: expect.any(String),
          webhookId: test.path.slice(1) === 'build' ? 'build-app' : 'chat',
        },
      });
    }
    const list = (await api.get('webhooks')).body;
    expect(list).toEqual([
      {
        id: 'build-app',
        name: 'Build app',
        url: receiver.url('/build'),
        events: ['textItems.updated', 'components.published'],
        enabled: true,
        disabledReason: null,
        createdAt: expect.any(String),
      },
      expect.objectContaining({ id: 'chat', enabled: false, events: ['*'] }),
    ]);
    const history = (await api.get('history?kind=webhook')).body.changes;
    expect(history.map((c: any) => `${c.developerId}:${c.action}`)).toEqual(
      expect.arrayContaining(['build-app:created', 'chat:created']),
    );
  });

  it('answers 400 naming what the URL answered, and saves nothing', async () => {
    const workspace = await createWorkspace(ctx);
    await setSigningKey(workspace);
    receiver.respondWith((r) => (r.path === '/broken' ? 503 : 200));
    const res = await workspace.api.post('webhooks', {
      webhooks: [
        { name: 'Fine', url: receiver.url('/fine'), events: ['*'] },
        { name: 'Broken', url: receiver.url('/broken'), events: ['*'] },
      ],
    });
    receiver.respondWith(() => 200);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^webhooks\[1\]\.url: the test delivery to .*\/broken failed: it answered HTTP 503/,
    );
    expect((await workspace.api.get('webhooks')).body).toEqual([]);
  });

  it('answers 400 naming the network error of a URL nobody listens on', async () => {
    const workspace = await createWorkspace(ctx);
    await setSigningKey(workspace);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const res = await workspace.api.post('webhooks', {
      webhooks: [{ name: 'Gone', url: `http://127.0.0.1:${port}/x`, events: ['*'] }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^webhooks\[0\]\.url: the test delivery .* failed: .*ECONNREFUSED/);
  });

  it('does not follow a redirect', async () => {
    const workspace = await createWorkspace(ctx);
    await setSigningKey(workspace);
    const redirecting = http.createServer((_req, res) => res.writeHead(302, { location: receiver.url() }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    afterAll(() => new Promise<void>((resolve) => redirecting.close(() => resolve())));
    const before = receiver.received.length;
    const res = await workspace.api.post('webhooks', {
      webhooks: [{ name: 'R', url: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`, events: ['*'] }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/HTTP 302/);
    expect(receiver.received.length).toBe(before);
  });

  it.each([
    [{ name: 'A', url: 'ftp://example.com/x', events: ['*'] }, /webhooks\[0\]\.url: only https: and http:/],
    [{ name: 'A', url: 'http://user:pw@example.com/x', events: ['*'] }, /webhooks\[0\]\.url: credentials/],
    [{ name: 'A', url: 'not a url', events: ['*'] }, /webhooks\[0\]\.url: 'not a url' is not a URL/],
    [
      { name: 'A', url: 'http://example.com/', events: ['texts.changed'] },
      /webhooks\[0\]\.events\[0\]: 'texts.changed' is not an event/,
    ],
    [
      { name: 'A', url: 'http://example.com/', events: [] },
      /webhooks\[0\]\.events: an enabled webhook needs at least one event/,
    ],
    [{ name: 'A', url: 'http://example.com/', events: ['*'], bogus: 1 }, /bogus/],
  ])('answers 400 for %j', async (webhook, message) => {
    const workspace = await createWorkspace(ctx);
    await setSigningKey(workspace);
    const res = await workspace.api.post('webhooks', { webhooks: [webhook] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('answers 400 naming a developer ID repeated in one request', async () => {
    const workspace = await createWorkspace(ctx);
    await setSigningKey(workspace);
    const hook = (developerId?: string) => ({ name: 'A', url: receiver.url(), events: ['*'], developerId });
    const res = await workspace.api.post('webhooks', { webhooks: [hook('a'), hook(), hook('a')] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("webhooks[2].developerId: duplicate developer ID 'a'");
  });

  it('answers 409 for a developer ID in use', async () => {
    const workspace = await createWorkspace(ctx);
    await setSigningKey(workspace);
    const one = { name: 'A', url: receiver.url(), events: ['*'], developerId: 'a' };
    expect((await workspace.api.post('webhooks', { webhooks: [one] })).status).toBe(201);
    expect((await workspace.api.post('webhooks', { webhooks: [one] })).status).toBe(409);
  });
});

describe('updating and deleting webhooks', () => {
  it('tests a new URL, updates all or nothing, and deletes', async () => {
    const workspace = await createWorkspace(ctx);
    const { api } = workspace;
    await setSigningKey(workspace);
    const created = await api.post('webhooks', {
      webhooks: [{ name: 'A', url: receiver.url('/a'), events: ['*'], developerId: 'a' }],
    });
    expect(created.status).toBe(201);
    const before = receiver.received.length;
    const moved = await api.patch('webhooks', {
      updates: [{ developerId: 'a', url: receiver.url('/a2'), name: 'A2' }],
    });
    expect(moved.status).toBe(200);
    expect(receiver.received.slice(before).map((r) => `${r.path}:${r.body.event}:${r.body.data.webhookId}`)).toEqual([
      '/a2:webhook.test:a',
    ]);
    const missing = await api.patch('webhooks', {
      updates: [
        { developerId: 'a', name: 'A3' },
        { developerId: 'nope', name: 'x' },
      ],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/nope/);
    const empty = await api.patch('webhooks', { updates: [{ developerId: 'a', events: [] }] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/updates\[0\]\.events: an enabled webhook needs at least one event/);
    expect((await api.patch('webhooks', { updates: [{ developerId: 'a', events: [], enabled: false }] })).status).toBe(
      200,
    );
    expect((await api.get('webhooks')).body[0]).toMatchObject({
      name: 'A2',
      url: receiver.url('/a2'),
      events: [],
      enabled: false,
    });
    expect((await api.delete('webhooks', { developerIds: ['a', 'b'] })).status).toBe(404);
    expect((await api.delete('webhooks', { developerIds: ['a'] })).status).toBe(200);
    expect((await api.get('webhooks')).body).toEqual([]);
    const actions = (await api.get('history?kind=webhook&id=a')).body.changes.map((c: any) => c.action);
    expect(actions).toEqual(['deleted', 'updated', 'updated', 'created']);
  });
});

describe('outbound safety', () => {
  it('refuses link-local and metadata addresses even when private networks are allowed', async () => {
    const workspace = await createWorkspace(ctx);
    await setSigningKey(workspace);
    for (const url of [
      'http://169.254.169.254/latest',
      'http://[fe80::1]/',
      'http://0.0.0.0:1/',
      'http://[::ffff:169.254.169.254]/',
    ]) {
      const res = await workspace.api.post('webhooks', { webhooks: [{ name: 'M', url, events: ['*'] }] });
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toMatch(/refused address/);
    }
  });
});

describe('without WEBHOOK_ALLOW_PRIVATE_NETWORKS', () => {
  it('refuses loopback, by literal and by a name that resolves to it', async () => {
    const strict = await setupWebhooksApp({ allowPrivateNetworks: false });
    const workspace = await createWorkspace(strict);
    await setSigningKey(workspace);
    const before = receiver.received.length;
    for (const url of [receiver.url(), `http://localhost:${receiver.port}/hook`, `http://[::1]:${receiver.port}/`]) {
      const res = await workspace.api.post('webhooks', { webhooks: [{ name: 'L', url, events: ['*'] }] });
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toMatch(/refused address: .* is a loopback or private address/);
    }
    expect(receiver.received.length).toBe(before);
  });
});

describe('with COPYDESK_SECRET', () => {
  it('keeps the signing key encrypted, and says so when another secret cannot read it', async () => {
    const sealed = await setupWebhooksApp({ secret: randomBytes(32) });
    const workspace = await createWorkspace(sealed);
    await setSigningKey(workspace);
    const row = await sealed.database.db
      .selectFrom('webhook_signing_keys')
      .select('stored')
      .where('workspace_id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    expect(row.stored).not.toContain(SIGNING_KEY.slice(0, 8));
    const before = receiver.received.length;
    const res = await workspace.api.post('webhooks', {
      webhooks: [{ name: 'S', url: receiver.url('/sealed'), events: ['*'] }],
    });
    expect(res.status).toBe(201);
    expect(verifiedBy(SIGNING_KEY, receiver.received[before] as never)).toBe(true);

    const rotated = servicesFor(
      { ...sealed.config, webhooks: { ...sealed.config.webhooks, secret: randomBytes(32) } },
      sealed.database,
    );
    expect(await rotated.webhooks.resource.unreadableKeys()).toBeGreaterThanOrEqual(1);
    const scope = { workspaceId: workspace.id, actor: { email: workspace.email, keyId: null } };
    await expect(
      rotated.webhooks.resource.create(scope, [{ name: 'T', url: receiver.url('/sealed'), events: ['*'] }]),
    ).rejects.toThrow(/cannot be read with the current COPYDESK_SECRET/);
  });
});
