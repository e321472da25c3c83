import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { manualClock } from '../../helpers/clock.js';
import { signedIn } from '../accounts/people.js';
import { listening, openEvents } from './sse.js';

// Who has which text open: through the database, and through Redis when one answers. Time is a
// clock the test moves, so an entry's expiry is asserted without waiting for it.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const TTL_MS = 10_000;
const stores = ['database', ...((await redisAnswers()) || process.env.CI ? ['redis'] : [])];

describe.each(stores)('presence in the %s', async (store) => {
  const clock = manualClock();
  const ctx = await setupApp(
    {
      events: {
        heartbeatMs: 15_000,
        maxStreams: 10,
        streamMaxMs: 60_000,
        retryMs: 1000,
        pollMs: 50,
        presenceTtlMs: TTL_MS,
      },
      ...(store === 'redis' && {
        redis: { url: redisUrl, prefix: `${process.env.TEST_REDIS_PREFIX ?? 'copydesk-test-'}${randomUUID()}:` },
      }),
    },
    { now: clock.now },
  );
  const base = await listening(ctx.app);
  const tab = () => `tab-${randomUUID()}`;

  it('a heartbeat says who has which text open; everyone in the workspace sees it, no one else', async () => {
    const ws = await createWorkspace(ctx);
    const stranger = await createWorkspace(ctx);
    const viewer = await signedIn(ctx.app, ws, 'viewer');
    const live = await openEvents(base, { authorization: ws.key });
    expect((await live.next('presence')).presence).toEqual([]);

    const mine = tab();
    // A viewer reads, and says what it reads: presence is everyone's own state.
    const put = await viewer.call('PUT', 'presence', { clientId: mine, kind: 'textItem', id: 'checkout' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const email = put.body.presence[0]?.email;
    expect(put.body.presence).toEqual([
      {
        email,
        clientId: mine,
        kind: 'textItem',
        id: 'checkout',
        expiresAt: new Date(clock.now() + TTL_MS).toISOString(),
      },
    ]);
    expect(email).toMatch(/^viewer\d+-\d+@example.com$/);
    expect((await ws.api.get('presence')).body.presence).toEqual(put.body.presence);
    expect((await stranger.api.get('presence')).body.presence).toEqual([]);
    const seen = await live.next('presence', (d) => d.presence.length === 1, 'the viewer on checkout');
    expect(seen.presence[0]).toMatchObject({ email, kind: 'textItem', id: 'checkout' });

    // Another text in the same tab moves the entry; a second tab is an entry of its own.
    await viewer.call('PUT', 'presence', { clientId: mine, kind: 'component', id: 'button' });
    const other = tab();
    await ws.api.put('presence', { clientId: other, kind: 'textItem', id: 'checkout' });
    const both = await live.next('presence', (d) => d.presence.length === 2, 'two tabs');
    expect(both.presence.map((p: { id: string }) => p.id).sort()).toEqual(['button', 'checkout']);

    // A goodbye to a text the tab has left since (it arrived late) leaves the new entry.
    expect((await viewer.call('DELETE', 'presence', { clientId: mine, kind: 'textItem', id: 'checkout' })).status).toBe(
      200,
    );
    expect((await ws.api.get('presence')).body.presence.map((p: { id: string }) => p.id).sort()).toEqual([
      'button',
      'checkout',
    ]);
    // Closing the tab removes its entry at once, and only its own.
    expect((await stranger.api.delete('presence', { clientId: mine })).status).toBe(200);
    expect((await ws.api.get('presence')).body.presence).toHaveLength(2);
    expect((await viewer.call('DELETE', 'presence', { clientId: mine })).status).toBe(200);
    const left = await live.next(
      'presence',
      (d) => d.presence.length === 1 && d.presence[0].clientId === other,
      'the viewer gone',
    );
    expect(left.presence[0]).toMatchObject({ email: ws.email, clientId: other });
    live.close();
  });

  it('an entry whose tab stopped sending heartbeats goes after its time to live', async () => {
    const ws = await createWorkspace(ctx);
    const live = await openEvents(base, { authorization: ws.key });
    await live.next('presence');
    const open = tab();
    await ws.api.put('presence', { clientId: open, kind: 'textItem', id: 'welcome' });
    await live.next('presence', (d) => d.presence.length === 1, 'the entry');
    await clock.advance(TTL_MS - 1);
    expect((await ws.api.get('presence')).body.presence).toHaveLength(1);
    // A heartbeat keeps it; without one, it goes.
    await ws.api.put('presence', { clientId: open, kind: 'textItem', id: 'welcome' });
    await clock.advance(TTL_MS - 1);
    expect((await ws.api.get('presence')).body.presence).toHaveLength(1);
    await clock.advance(2);
    expect((await ws.api.get('presence')).body.presence).toEqual([]);
    await live.next('presence', (d) => d.presence.length === 0 && live.of('presence').length > 2, 'the entry gone');
    live.close();
  });

  it('refuses a malformed heartbeat, naming the field', async () => {
    const ws = await createWorkspace(ctx);
    const short = await ws.api.put('presence', { clientId: 'x', kind: 'textItem', id: 'welcome' });
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/clientId/);
    const kind = await ws.api.put('presence', { clientId: tab(), kind: 'project', id: 'welcome' });
    expect(kind.status).toBe(400);
    expect(kind.body.message).toMatch(/kind/);
    const chars = await ws.api.put('presence', { clientId: 'tab with spaces!', kind: 'textItem', id: 'welcome' });
    expect(chars.status).toBe(400);
    expect(chars.body.message).toMatch(/^clientId: /);
  });
});
