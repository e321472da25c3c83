import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../helpers/app.js';
import { waitFor } from '../../helpers/wait.js';
import { setSigningKey, setupWebhooksApp, silentLog } from '../webhooks/helpers.js';
import { type Received, startReceiver } from '../webhooks/receiver.js';

/** A restore is a write like any other: its webhooks are sent. */
const ctx = await setupWebhooksApp();
const receiver = await startReceiver();
const worker = ctx.services.webhooks.worker(silentLog);
worker.start();
afterAll(() => worker.stop());

async function eventsAt(path: string, count: number): Promise<Received[]> {
  await waitFor(() => receiver.events(path).length >= count, `${count} events at ${path}`, { timeoutMs: 15_000 });
  const events = receiver.events(path);
  expect(events.length, `events at ${path}`).toBe(count);
  return [...events].sort((a, b) => a.body.data.sequence - b.body.data.sequence);
}

describe('webhooks of a restore', () => {
  it('sends the events of what the restore changed', async () => {
    const ws = await createWorkspace(ctx);
    await setSigningKey(ws);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await ws.api.post('textItems', {
      projectId: 'web',
      textItems: [
        { developerId: 'a', text: 'A' },
        { developerId: 'b', text: 'B' },
      ],
    });
    const hook = await ws.api.post('webhooks', {
      webhooks: [
        {
          name: 'Hook',
          developerId: 'hook',
          url: receiver.url('/restore'),
          events: ['textItems.created', 'textItems.deleted', 'textItems.updated'],
        },
      ],
    });
    expect(hook.status).toBe(201);
    const del = await ws.api.delete('textItems', { developerIds: ['a', 'b'] });
    const restore = await ws.api.post('history/restore', { revision: del.headers['copydesk-revision'] });
    expect(restore.status, JSON.stringify(restore.body)).toBe(200);
    const events = await eventsAt('/restore', 2);
    expect(events.map((e) => e.body.event)).toEqual(['textItems.deleted', 'textItems.created']);
    const created = events[1] as Received;
    expect(created.body.data.changes.map((c: { developerId: string; action: string }) => c.developerId).sort()).toEqual(
      ['a', 'b'],
    );
    expect(created.body.data.changes[0]).toMatchObject({ action: 'created', revision: restore.body.revision });
  });
});
