import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../helpers/app.js';
import { waitFor } from '../../helpers/wait.js';
import { SIGNING_KEY, setSigningKey, setupWebhooksApp, silentLog } from '../webhooks/helpers.js';
import { type Received, startReceiver, verifiedBy } from '../webhooks/receiver.js';

/** Suggestion events from real writes, delivered by a running worker to a real receiver. */
const ctx = await setupWebhooksApp();
const receiver = await startReceiver();
const worker = ctx.services.webhooks.worker(silentLog);
worker.start();
afterAll(() => worker.stop());

describe('suggestion events', () => {
  it('sends suggestion.created, accepted, rejected and withdrawn, and an accept its text event too', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'title', text: 'Hello' }] });
    await setSigningKey(ws);
    const path = '/suggestions';
    const hooked = await ws.api.post('webhooks', {
      webhooks: [
        {
          name: 'Hook',
          developerId: 'hook',
          url: receiver.url(path),
          events: [
            'suggestion.created',
            'suggestion.accepted',
            'suggestion.rejected',
            'suggestion.withdrawn',
            'textItems.updated',
          ],
        },
      ],
    });
    expect(hooked.status).toBe(201);
    const created = await ws.api.post('suggestions', {
      suggestions: [
        { textItemId: 'title', text: 'Hello there' },
        { textItemId: 'title', text: 'Hi' },
        { textItemId: 'title', text: 'Hey' },
      ],
    });
    expect(created.status).toBe(201);
    const [taken, refused, withdrawn] = created.body.ids;
    expect((await ws.api.post('suggestions/accept', { ids: [taken] })).status).toBe(200);
    expect((await ws.api.post('suggestions/reject', { ids: [refused], note: 'No' })).status).toBe(200);
    expect((await ws.api.post('suggestions/withdraw', { ids: [withdrawn] })).status).toBe(200);

    // created (one event for the batch), the accept's textItems.updated and suggestion.accepted,
    // rejected, withdrawn.
    await waitFor(() => receiver.events(path).length >= 5, '5 events', { timeoutMs: 15_000 });
    const events = [...receiver.events(path)].sort((a, b) => a.body.data.sequence - b.body.data.sequence);
    expect(events.map((e) => e.body.event)).toEqual([
      'suggestion.created',
      'textItems.updated',
      'suggestion.accepted',
      'suggestion.rejected',
      'suggestion.withdrawn',
    ]);
    const history = new Map(
      (await ws.api.get('history?limit=100')).body.changes.map((c: any) => [c.id, c] as [string, unknown]),
    );
    for (const event of events as Received[]) {
      expect(verifiedBy(SIGNING_KEY, event)).toBe(true);
      expect(event.body.data.actor).toBe(ws.email);
      for (const change of event.body.data.changes) expect(change).toEqual(history.get(change.id));
    }
    expect(events[0]?.body.data.changes.map((c: any) => c.developerId)).toEqual([taken, refused, withdrawn]);
    expect(events[0]?.body.data.changes[0]).toMatchObject({
      kind: 'suggestion',
      action: 'created',
      fields: {
        textItemId: { before: null, after: 'title' },
        status: { before: null, after: 'open' },
        proposed: { before: null, after: { text: 'Hello there', richText: null, plurals: null } },
      },
    });
    expect(events[1]?.body.data.changes[0]).toMatchObject({
      kind: 'textItem',
      developerId: 'title',
      fields: { text: { before: 'Hello', after: 'Hello there' } },
    });
    expect(events[2]?.body.data.changes).toEqual([
      expect.objectContaining({
        kind: 'suggestion',
        developerId: taken,
        action: 'accepted',
        fields: expect.objectContaining({
          status: { before: 'open', after: 'accepted' },
          suggestedBy: { before: null, after: ws.email },
        }),
      }),
    ]);
    expect(events[3]?.body.data.changes[0]).toMatchObject({
      developerId: refused,
      action: 'rejected',
      fields: { decisionNote: { before: null, after: 'No' } },
    });
    expect(events[4]?.body.data.changes[0]).toMatchObject({ developerId: withdrawn, action: 'withdrawn' });
  });
});
