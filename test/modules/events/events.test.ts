import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { anotherServer, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { signedIn } from '../accounts/people.js';
import { listening, openEvents, type SseClient } from './sse.js';

// The live event stream over real connections: what arrives, for whom, and from where it resumes.
const ctx = await setupApp({
  events: { heartbeatMs: 100, maxStreams: 3, streamMaxMs: 60_000, retryMs: 700, pollMs: 50, presenceTtlMs: 15_000 },
});
const base = await listening(ctx.app);
const streams: SseClient[] = [];

async function stream(headers: Record<string, string>, query = ''): Promise<SseClient> {
  const client = await openEvents(base, headers, query);
  streams.push(client);
  return client;
}

/** Creates a text item; answers the revision the write made. */
async function addText(ws: Workspace, developerId: string, text = 'Hello'): Promise<number> {
  const res = await ws.api.post('components', { components: [{ developerId, text }] });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return Number(res.headers['copydesk-revision']);
}

const changed = (client: SseClient) =>
  client.events.filter((e) => e.event === 'change').map((e) => ({ id: Number(e.id), data: JSON.parse(e.data) }));

describe('GET /v2/events', () => {
  it('needs a key or a session; answers a stream, never compressed, as it goes', async () => {
    expect((await stream({})).status).toBe(401);
    expect((await stream({ authorization: 'cdk_not_a_key' })).status).toBe(401);
    const ws = await createWorkspace(ctx);
    const { id, key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email: ws.email });
    await ctx.services.accounts.revokeKey(id);
    expect((await stream({ authorization: key })).status).toBe(401);

    const live = await stream({ authorization: ws.key, 'accept-encoding': 'gzip, br' });
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(live.headers.get('content-encoding')).toBeNull();
    expect(live.headers.get('cache-control')).toBe('no-cache, no-transform');
    // The first events arrive while the response is still open: nothing buffers the stream.
    const ready = await live.next('ready');
    expect(live.ended()).toBe(false);
    // A dropped stream is resumed after the delay configured (EVENTS_RETRY_MS).
    expect(live.retry).toBe(700);
    const revision = await addText(ws, 'greeting', 'Hello there');
    expect(Number(ready.revision)).toBeLessThan(revision);
    const change = await live.next('change', (d) => Number(d.revision) === revision);
    expect(change.actor).toBe(ws.email);
    expect(change.changes).toEqual([
      expect.objectContaining({ kind: 'component', developerId: 'greeting', action: 'created' }),
    ]);
    expect(changed(live).map((e) => e.id)).toEqual([revision]);
    // Heartbeats keep an idle connection alive.
    const before = live.comments;
    await expect.poll(() => live.comments).toBeGreaterThan(before);

    // A signed-in person's session opens one too (the web app's way).
    const browser = await signedIn(ctx.app, ws, 'viewer');
    const viaCookie = await stream({ cookie: browser.cookie });
    expect(viaCookie.status).toBe(200);
    await viaCookie.next('ready');
    const next = await addText(ws, 'farewell');
    await viaCookie.next('change', (d) => Number(d.revision) === next);
  });

  it('a revoked key or an ended session ends its stream by the next heartbeat', async () => {
    const ws = await createWorkspace(ctx);
    const { id, key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email: ws.email });
    const byKey = await stream({ authorization: key });
    const browser = await signedIn(ctx.app, ws, 'editor');
    const bySession = await stream({ cookie: browser.cookie });
    await byKey.next('ready');
    await bySession.next('ready');
    // Heartbeats come and go while both still authenticate.
    const before = byKey.comments;
    await expect.poll(() => byKey.comments).toBeGreaterThan(before + 1);
    expect(byKey.ended() || bySession.ended()).toBe(false);

    await ctx.services.accounts.revokeKey(id);
    await expect.poll(() => byKey.ended()).toBe(true);
    expect(bySession.ended()).toBe(false);
    expect((await browser.call('DELETE', 'session')).status).toBeLessThan(300);
    await expect.poll(() => bySession.ended()).toBe(true);
    // Nothing written after that reaches them.
    const revision = await addText(ws, 'after-revocation');
    expect(changed(byKey).map((e) => e.id)).not.toContain(revision);
  });

  it("carries only the workspace's own changes", async () => {
    const mine = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    const live = await stream({ authorization: mine.key });
    await live.next('ready');
    const theirs = await addText(other, 'secret-text', 'Not for you');
    const own = await addText(mine, 'own-text');
    await live.next('change', (d) => Number(d.revision) === own);
    // Events come in revision order: had the other workspace's write been sent, it would be here.
    expect(changed(live).map((e) => e.data.changes[0].developerId)).toEqual(['own-text']);
    expect(live.events.map((e) => e.data).join('')).not.toContain('secret-text');
    expect(theirs).toBeGreaterThan(0);
  });

  it('a dropped stream resumes with Last-Event-ID: every write since, once, in order', async () => {
    const ws = await createWorkspace(ctx);
    const first = await stream({ authorization: ws.key });
    await first.next('ready');
    const r1 = await addText(ws, 'one');
    await first.next('change', (d) => Number(d.revision) === r1);
    first.close();
    // Written while nobody listened.
    const r2 = await addText(ws, 'two');
    const patched = await ws.api.patch('components', { updates: [{ developerId: 'one', text: 'One, changed' }] });
    expect(patched.status).toBe(200);
    const r3 = Number(patched.headers['copydesk-revision']);
    const resumed = await stream({ authorization: ws.key, 'last-event-id': String(r1) });
    await resumed.next('change', (d) => Number(d.revision) === r3);
    const r4 = await addText(ws, 'four');
    await resumed.next('change', (d) => Number(d.revision) === r4);
    expect(changed(resumed).map((e) => e.id)).toEqual([r2, r3, r4]);
    expect(changed(resumed).map((e) => e.data.changes[0].developerId)).toEqual(['two', 'one', 'four']);
    expect(changed(resumed)[1]?.data.changes[0].fields.text).toEqual({ before: 'Hello', after: 'One, changed' });
    expect(resumed.of('reset')).toEqual([]);

    // The same from the query, for a client that cannot set the header.
    const fromQuery = await stream({ authorization: ws.key }, `?lastEventId=${r2}`);
    await fromQuery.next('change', (d) => Number(d.revision) === r4);
    expect(changed(fromQuery).map((e) => e.id)).toEqual([r3, r4]);
  });

  it('streams resuming from different positions at once each get exactly the writes after theirs', async () => {
    const ws = await createWorkspace(ctx);
    const revisions: number[] = [];
    for (let i = 0; i < 6; i += 1) revisions.push(await addText(ws, `before-${i}`));
    const live = await stream({ authorization: ws.key });
    await live.next('ready');
    // Resumptions from further back join while writes go on and the room reads (the key may
    // hold three streams).
    const from = [revisions[4] as number, revisions[1] as number];
    const [resumed, more] = await Promise.all([
      Promise.all(from.map((r) => stream({ authorization: ws.key, 'last-event-id': String(r) }))),
      Promise.all([0, 1, 2].map((i) => addText(ws, `during-${i}`))),
    ]);
    const last = Math.max(...more);
    const all = [...revisions, ...more].sort((a, b) => a - b);
    for (const [index, client] of resumed.entries()) {
      const since = from[index] as number;
      await client.next('change', (d) => Number(d.revision) === last, `the last write, from ${since}`);
      expect(changed(client).map((e) => e.id)).toEqual(all.filter((r) => r > since));
      client.close();
    }
    await live.next('change', (d) => Number(d.revision) === last);
    expect(changed(live).map((e) => e.id)).toEqual([...more].sort((a, b) => a - b));
    live.close();
  });

  it('a position it cannot resume from gets a reset, then goes on from now', async () => {
    const ws = await createWorkspace(ctx);
    let r1 = await addText(ws, 'one');
    for (const last of [String(r1 + 1000), 'not-a-revision']) {
      const live = await stream({ authorization: ws.key, 'last-event-id': last });
      const reset = await live.next('reset');
      expect(reset.revision).toBe(String(r1));
      expect(live.events.find((e) => e.event === 'reset')?.id).toBe(String(r1));
      const r2 = await addText(ws, `after-${live.events.length}-${last.length}`);
      await live.next('change', (d) => Number(d.revision) === r2);
      expect(changed(live).map((e) => e.id)).toEqual([r2]);
      live.close();
      r1 = r2;
    }
  });

  it('limits the streams of one key, and frees a place when one closes', async () => {
    const ws = await createWorkspace(ctx);
    const open = [];
    for (let i = 0; i < 3; i += 1) {
      const live = await stream({ authorization: ws.key });
      expect(live.status).toBe(200);
      await live.next('ready');
      open.push(live);
    }
    const refused = await stream({ authorization: ws.key });
    expect(refused.status).toBe(429);
    open[0]?.close();
    await expect
      .poll(async () => {
        const again = await stream({ authorization: ws.key });
        again.close();
        return again.status;
      })
      .toBe(200);
    for (const live of open) live.close();
  });
});

describe('servers side by side', () => {
  it('a write on one server reaches a stream on the other', async () => {
    // On PostgreSQL through the database's notifications; on one SQLite file, through its poll.
    const other = await anotherServer(ctx);
    const otherBase = await listening(other.app);
    const ws = await createWorkspace(ctx);
    const onB = await openEvents(otherBase, { authorization: ws.key });
    streams.push(onB);
    await onB.next('ready');
    const revision = await addText(ws, 'from-a');
    const change = await onB.next('change', (d) => Number(d.revision) === revision, 'the write made on A');
    expect(change.changes[0].developerId).toBe('from-a');
    onB.close();
  });
});

describe('the reconnection delay', () => {
  it('is read from EVENTS_RETRY_MS, a second by default, and refused when it is not an integer', () => {
    expect(loadConfig({}).events.retryMs).toBe(1000);
    expect(loadConfig({ EVENTS_RETRY_MS: '250' }).events.retryMs).toBe(250);
    expect(() => loadConfig({ EVENTS_RETRY_MS: 'soon' })).toThrow(
      "EVENTS_RETRY_MS must be an integer of at least 10, got 'soon'",
    );
  });
});
