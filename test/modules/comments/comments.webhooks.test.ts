import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../helpers/app.js';
import { waitFor } from '../../helpers/wait.js';
import { SIGNING_KEY, setSigningKey, setupWebhooksApp, silentLog } from '../webhooks/helpers.js';
import { type Received, startReceiver, verifiedBy } from '../webhooks/receiver.js';

/** Comment events from real writes, delivered by a running worker to a real receiver. */
const ctx = await setupWebhooksApp();
const receiver = await startReceiver();
const worker = ctx.services.webhooks.worker(silentLog);
worker.start();
afterAll(() => worker.stop());

describe('comment events', () => {
  it('sends comment.created, updated, resolved, reopened and deleted, carrying the changes of history', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'title', text: 'Hello' }] });
    await setSigningKey(ws);
    const path = '/comments';
    const hooked = await ws.api.post('webhooks', {
      webhooks: [
        {
          name: 'Hook',
          developerId: 'hook',
          url: receiver.url(path),
          events: ['comment.created', 'comment.updated', 'comment.resolved', 'comment.reopened', 'comment.deleted'],
        },
      ],
    });
    expect(hooked.status).toBe(201);
    const created = await ws.api.post('comments', { comments: [{ textItemId: 'title', body: 'Too short?' }] });
    const id = created.body.ids[0];
    await ws.api.patch('comments', { updates: [{ id, body: 'Too short.' }] });
    await ws.api.post('comments/resolve', { threadIds: [id] });
    await ws.api.post('comments/reopen', { threadIds: [id] });
    await ws.api.delete('comments', { ids: [id] });
    // A text write is not a comment event: the webhook is not subscribed to it.
    await ws.api.patch('textItems', { updates: [{ developerId: 'title', text: 'Hi' }] });

    await waitFor(() => receiver.events(path).length >= 5, '5 comment events', { timeoutMs: 15_000 });
    const events = [...receiver.events(path)].sort((a, b) => a.body.data.sequence - b.body.data.sequence);
    expect(events.map((e) => e.body.event)).toEqual([
      'comment.created',
      'comment.updated',
      'comment.resolved',
      'comment.reopened',
      'comment.deleted',
    ]);
    const history = new Map(
      (await ws.api.get('history?kind=comment')).body.changes.map((c: any) => [c.id, c] as [string, unknown]),
    );
    for (const event of events as Received[]) {
      expect(verifiedBy(SIGNING_KEY, event)).toBe(true);
      expect(event.body.data.actor).toBe(ws.email);
      expect(event.body.data.changes).toHaveLength(1);
      const [change] = event.body.data.changes;
      expect(change).toEqual(history.get(change.id));
      expect(change).toMatchObject({ kind: 'comment', developerId: id });
    }
    expect(events[0]?.body.data.changes[0].fields).toMatchObject({
      textItemId: { before: null, after: 'title' },
      body: { before: null, after: 'Too short?' },
    });
    expect(events[2]?.body.data.changes[0]).toMatchObject({
      action: 'resolved',
      fields: { resolved: { before: false, after: true } },
    });
  });
});
