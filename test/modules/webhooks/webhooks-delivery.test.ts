import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../helpers/app.js';
import { waitFor } from '../../helpers/wait.js';
import { SIGNING_KEY, setSigningKey, setupWebhooksApp, silentLog } from './helpers.js';
import { type Received, startReceiver, verifiedBy } from './receiver.js';

/** Events from real writes, delivered by a running worker to a real receiver. */
// Failing only for 0.36 s disables a webhook here (72 h by default).
const ctx = await setupWebhooksApp({ disableAfterHours: 0.0001 });
const receiver = await startReceiver();
const worker = ctx.services.webhooks.worker(silentLog);
worker.start();
afterAll(() => worker.stop());

let paths = 0;

/** A workspace with a signing key and one webhook subscribed to `events`, on its own path. */
async function subscribed(events: string[] = ['*']): Promise<{ workspace: Workspace; path: string }> {
  const workspace = await createWorkspace(ctx);
  await setSigningKey(workspace);
  paths += 1;
  const path = `/w${paths}`;
  const res = await workspace.api.post('webhooks', {
    webhooks: [{ name: 'Hook', developerId: 'hook', url: receiver.url(path), events }],
  });
  expect(res.status).toBe(201);
  return { workspace, path };
}

/** Waits until `path` has received `count` events, and answers them in sequence order. */
async function eventsAt(path: string, count: number): Promise<Received[]> {
  await waitFor(() => receiver.events(path).length >= count, `${count} events at ${path}`, { timeoutMs: 15_000 });
  const events = receiver.events(path);
  expect(events.length, `events at ${path}`).toBe(count);
  return [...events].sort((a, b) => a.body.data.sequence - b.body.data.sequence);
}

describe('events', () => {
  it('sends every event of the catalogue, signed as the original signs them', async () => {
    const { workspace, path } = await subscribed();
    const { api } = workspace;
    const expectOk = async (res: Promise<{ status: number; body: unknown }>) => {
      const r = await res;
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    };
    await expectOk(api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }));
    await expectOk(api.patch('variants', { updates: [{ developerId: 'fr', newDeveloperId: 'fr-fr' }] }));
    await expectOk(api.post('variables', { variables: [{ name: 'user', type: 'string', data: { example: 'Ann' } }] }));
    await expectOk(api.post('componentFolders', { folders: [{ name: 'F', developerId: 'f' }] }));
    await expectOk(api.post('projects', { projects: [{ name: 'P', developerId: 'p' }] }));
    await expectOk(api.post('components', { components: [{ developerId: 'c1', text: 'Hello' }] }));
    await expectOk(api.patch('components', { updates: [{ developerId: 'c1', text: 'Hi', status: 'FINAL' }] }));
    await expectOk(api.post('textItems', { projectId: 'p', textItems: [{ developerId: 't1', text: 'One' }] }));
    await expectOk(api.patch('textItems', { updates: [{ developerId: 't1', text: 'Uno' }] }));
    await expectOk(api.post('components/publish', { textItemId: 't1' }));
    await expectOk(api.post('textItems', { projectId: 'p', textItems: [{ developerId: 't3', text: 'Three' }] }));
    await expectOk(api.delete('textItems', { developerIds: ['t3'] }));
    await expectOk(api.delete('components', { developerIds: ['c1'] }));
    await expectOk(api.post('styleguides', { styleguides: [{ name: 'Voice', developerId: 'voice' }] }));
    const events = await eventsAt(path, 16);
    expect(events.map((e) => e.body.event)).toEqual([
      'variants.changed',
      'developerIds.updated',
      'variants.changed',
      'variables.changed',
      'folders.changed',
      'projects.changed',
      'components.created',
      'components.updated',
      'statuses.updated',
      'textItems.created',
      'textItems.updated',
      'components.published',
      'textItems.created',
      'textItems.deleted',
      'components.deleted',
      'styleGuides.changed',
    ]);
    const sequences = events.map((e) => e.body.data.sequence);
    expect(new Set(sequences).size).toBe(sequences.length);
    for (const event of events) {
      expect(verifiedBy(SIGNING_KEY, event)).toBe(true);
      expect(event.raw).toBe(JSON.stringify(event.body));
      expect(event.body.data).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        workspaceId: String(workspace.id),
        at: expect.any(String),
        actor: workspace.email,
        sequence: expect.any(Number),
        changes: expect.any(Array),
      });
    }
    const history = (await api.get('history?limit=1000')).body.changes;
    const byId = new Map(history.map((c: any) => [c.id, c]));
    const updated = events.find((e) => e.body.event === 'components.updated') as Received;
    expect(updated.body.data.changes).toEqual([byId.get(updated.body.data.changes[0].id)]);
    expect(updated.body.data.changes[0]).toMatchObject({
      kind: 'component',
      developerId: 'c1',
      action: 'updated',
      fields: { text: { before: 'Hello', after: 'Hi' }, status: { before: 'NONE', after: 'FINAL' } },
    });
    const statusEvent = events.find((e) => e.body.event === 'statuses.updated') as Received;
    expect(statusEvent.body.data.changes).toEqual(updated.body.data.changes);
    const rename = events.find((e) => e.body.event === 'developerIds.updated') as Received;
    expect(rename.body.data.changes[0]).toMatchObject({
      kind: 'variant',
      action: 'renamed',
      fields: { developerId: { before: 'fr', after: 'fr-fr' } },
    });
    const publish = events.find((e) => e.body.event === 'components.published') as Received;
    expect(publish.body.data.changes.map((c: any) => `${c.kind}:${c.developerId}:${c.action}`)).toEqual([
      'component:t1:published',
      'textItem:t1:updated',
    ]);
  });

  it('sends only the subscribed events; webhook writes send none', async () => {
    const { workspace, path } = await subscribed(['components.created']);
    await workspace.api.post('variants', { variants: [{ name: 'German', developerId: 'de' }] });
    await workspace.api.patch('webhooks', { updates: [{ developerId: 'hook', name: 'Renamed' }] });
    await workspace.api.post('components', {
      components: [
        { developerId: 'a', text: 'A' },
        { developerId: 'b', text: 'B' },
      ],
    });
    const [event] = await eventsAt(path, 1);
    expect(event?.body.event).toBe('components.created');
    expect(event?.body.data.changes.map((c: any) => c.developerId)).toEqual(['a', 'b']);
  });

  it('gives every webhook the same event id and sequence', async () => {
    const { workspace, path } = await subscribed(['components.created']);
    const second = `${path}-second`;
    await workspace.api.post('webhooks', { webhooks: [{ name: 'Two', url: receiver.url(second), events: ['*'] }] });
    await workspace.api.post('components', { components: [{ developerId: 'x', text: 'X' }] });
    const [one] = await eventsAt(path, 1);
    const [two] = await eventsAt(second, 1);
    expect(two?.body.data.id).toBe(one?.body.data.id);
    expect(two?.body.data.sequence).toBe(one?.body.data.sequence);
    expect(two?.headers['x-ditto-request-id']).not.toBe(one?.headers['x-ditto-request-id']);
  });
});

describe('retries and the delivery log', () => {
  it('retries after a 500 with the same event, logs every attempt, and redelivers', async () => {
    const { workspace, path } = await subscribed(['components.created']);
    let failures = 2;
    receiver.respondWith((r) => (r.path === path && r.body.event !== 'webhook.test' && failures-- > 0 ? 500 : 200));
    await workspace.api.post('components', { components: [{ developerId: 'r', text: 'R' }] });
    const attempts = await eventsAt(path, 3);
    receiver.respondWith(() => 200);
    expect(new Set(attempts.map((a) => a.body.data.id)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-ditto-request-id'])).size).toBe(3);
    for (const attempt of attempts) expect(verifiedBy(SIGNING_KEY, attempt)).toBe(true);

    let log = (await workspace.api.get('webhooks/deliveries')).body;
    await waitFor(async () => {
      log = (await workspace.api.get('webhooks/deliveries')).body;
      return log.deliveries[0]?.state === 'succeeded';
    }, 'the last attempt logged as succeeded');
    expect(log.nextCursor).toBeNull();
    expect(log.deliveries.map((d: any) => `${d.attempt}:${d.state}:${d.statusCode}`)).toEqual([
      '3:succeeded:200',
      '2:retrying:500',
      '1:retrying:500',
    ]);
    const [last, second, first] = log.deliveries;
    expect(first).toMatchObject({
      webhookId: 'hook',
      event: 'components.created',
      eventId: attempts[0]?.body.data.id,
      requestId: attempts[0]?.headers['x-ditto-request-id'],
      error: 'HTTP 500',
      nextAttemptAt: second.at === null ? expect.any(String) : expect.any(String),
    });
    expect(first.payload).toEqual(attempts[0]?.body);
    expect(first.responseBody).toBe('answer 500');
    expect(last.responseBody).toBe('answer 200');
    expect(last.nextAttemptAt).toBeNull();
    expect(typeof last.durationMs).toBe('number');
    expect(new Set(log.deliveries.map((d: any) => d.deliveryId)).size).toBe(1);

    const page = (await workspace.api.get('webhooks/deliveries?limit=2')).body;
    expect(page.deliveries).toHaveLength(2);
    const rest = (await workspace.api.get(`webhooks/deliveries?limit=2&cursor=${page.nextCursor}`)).body;
    expect(rest.deliveries.map((d: any) => d.attempt)).toEqual([1]);
    expect((await workspace.api.get('webhooks/deliveries?status=retrying')).body.deliveries).toHaveLength(2);
    expect((await workspace.api.get('webhooks/deliveries?event=textItems.created')).body.deliveries).toHaveLength(0);
    expect((await workspace.api.get('webhooks/deliveries?webhookId=other')).body.deliveries).toHaveLength(0);
    expect((await workspace.api.get('webhooks/deliveries?status=lost')).status).toBe(400);
    expect((await workspace.api.get('webhooks/deliveries?limit=1001')).status).toBe(400);
    expect((await workspace.api.get('webhooks/deliveries?cursor=forged')).status).toBe(400);

    const redeliver = await workspace.api.post('webhooks/deliveries/redeliver', { ids: [last.deliveryId] });
    expect(redeliver.status).toBe(200);
    expect(redeliver.body).toEqual({ success: true });
    const again = await eventsAt(path, 4);
    expect(again[3]?.body).toEqual(attempts[0]?.body);
    const unknown = await workspace.api.post('webhooks/deliveries/redeliver', { ids: ['999999999'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/999999999/);
  });

  it("shows nothing of a workspace to another workspace's key", async () => {
    const { workspace, path } = await subscribed();
    await workspace.api.post('components', { components: [{ developerId: 'secret', text: 'S' }] });
    await eventsAt(path, 1);
    const stranger = await createWorkspace(ctx);
    expect((await stranger.api.get('webhooks')).body).toEqual([]);
    expect((await stranger.api.get('webhooks/signingKey')).body).toEqual({ configured: false, lastFour: null });
    expect((await stranger.api.get('webhooks/deliveries')).body).toEqual({ deliveries: [], nextCursor: null });
    const own = (await workspace.api.get('webhooks/deliveries')).body.deliveries[0];
    expect((await stranger.api.post('webhooks/deliveries/redeliver', { ids: [own.deliveryId] })).status).toBe(404);
    expect((await stranger.api.patch('webhooks', { updates: [{ developerId: 'hook', name: 'x' }] })).status).toBe(404);
    expect((await stranger.api.delete('webhooks', { developerIds: ['hook'] })).status).toBe(404);
    expect((await workspace.api.get('webhooks')).body[0].name).toBe('Hook');
  });
});

describe('a webhook that only fails', () => {
  it('is disabled with the reason shown, and enabling it again clears the reason', async () => {
    const { workspace, path } = await subscribed(['components.created']);
    receiver.respondWith((r) => (r.path === path && r.body.event !== 'webhook.test' ? 500 : 200));
    await workspace.api.post('components', { components: [{ developerId: 'down', text: 'D' }] });
    let hook = (await workspace.api.get('webhooks')).body[0];
    await waitFor(async () => {
      hook = (await workspace.api.get('webhooks')).body[0];
      return !hook.enabled;
    }, 'the webhook disabled');
    receiver.respondWith(() => 200);
    expect(hook.enabled).toBe(false);
    expect(hook.disabledReason).toMatch(/every delivery failed for 0.0001 hours \(last: HTTP 500\)/);
    const log = (await workspace.api.get('webhooks/deliveries')).body.deliveries;
    expect(log[0].state).toBe('failed');
    expect(log.filter((d: any) => d.state === 'pending')).toEqual([]);
    const enabled = await workspace.api.patch('webhooks', { updates: [{ developerId: 'hook', enabled: true }] });
    expect(enabled.status).toBe(200);
    expect((await workspace.api.get('webhooks')).body[0]).toMatchObject({ enabled: true, disabledReason: null });
  });
});

describe('the log', () => {
  it('keeps settled events for 30 days', async () => {
    const { workspace, path } = await subscribed(['components.created']);
    await workspace.api.post('components', { components: [{ developerId: 'old', text: 'O' }] });
    await eventsAt(path, 1);
    await waitFor(
      async () => (await workspace.api.get('webhooks/deliveries')).body.deliveries[0]?.state === 'succeeded',
      'the delivery logged as succeeded',
    );
    await ctx.services.webhooks.deliveries.purgeSettled(Date.now() + 29 * 86_400_000);
    expect((await workspace.api.get('webhooks/deliveries')).body.deliveries).toHaveLength(1);
    await ctx.services.webhooks.deliveries.purgeSettled(Date.now() + 31 * 86_400_000);
    expect((await workspace.api.get('webhooks/deliveries')).body.deliveries).toEqual([]);
  });
});
