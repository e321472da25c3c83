import { afterEach, describe, expect, it } from 'vitest';
import type { PresenceEntry, PresenceStore } from '../../../src/modules/events/events.types.js';
import { createEvents } from '../../../src/modules/events/index.js';

/**
 * The events service's presence reads, against a store whose reads the test holds: a change told
 * while a read is under way is read again after it, not left for the next periodic look (a second
 * away). Through HTTP the order cannot be forced; the routes' side is test/modules/events/presence.test.ts.
 */

/** Entries in memory; each read answers what was there when it began, and waits while `hold` is set. */
function heldStore() {
  const entries = new Map<string, PresenceEntry>();
  let hold: Promise<void> | null = null;
  let release = () => {};
  let reads = 0;
  const store: PresenceStore = {
    async put(_workspaceId, entry) {
      entries.set(entry.clientId, entry);
    },
    async remove(_workspaceId, key) {
      entries.delete(key.clientId);
    },
    async list() {
      reads += 1;
      const snapshot = [...entries.values()].sort((a, b) => (a.clientId < b.clientId ? -1 : 1));
      if (hold) await hold;
      return snapshot;
    },
    async close() {},
  };
  return {
    store,
    reads: () => reads,
    holdReads() {
      hold = new Promise((done) => (release = done));
    },
    releaseReads() {
      hold = null;
      release();
    },
  };
}

/** What a stream was sent, as its presence events' tabs. */
function recordingSink() {
  const chunks: string[] = [];
  return {
    sink: {
      write: (chunk: string) => {
        chunks.push(chunk);
        return 0;
      },
      end: () => {},
    },
    presences: () =>
      chunks
        .filter((chunk) => chunk.startsWith('event: presence'))
        .map((chunk) =>
          (JSON.parse(chunk.split('data: ')[1] ?? '{}') as { presence: { clientId: string }[] }).presence.map(
            (entry) => entry.clientId,
          ),
        ),
  };
}

const settle = () => new Promise((done) => setImmediate(done));

describe('presence told to the streams', () => {
  let close = async () => {};
  afterEach(() => close());

  it('reads again after a change told while a read was under way', async () => {
    const held = heldStore();
    const events = createEvents({
      history: {
        retainedRevisions: async () => ({ oldest: null, current: 0 }),
        writesAfter: async () => ({ writes: [], more: false }),
        revisionsOf: async () => new Map(),
      },
      presenceStore: held.store,
      // The periodic look comes every second (a quarter of the time to live, at most a second): the
      // test asserts long before it.
      config: {
        heartbeatMs: 60_000,
        maxStreams: 5,
        streamMaxMs: 600_000,
        retryMs: 1000,
        pollMs: 60_000,
        presenceTtlMs: 60_000,
      },
    });
    close = () => events.close();
    const recorded = recordingSink();
    await events.open({ workspaceId: 1, owner: 'key', lastEventId: undefined, sink: recorded.sink });
    await settle();
    expect(recorded.presences()).toEqual([[]]);

    // The first tab's heartbeat starts a read, which the store holds; the second tab's heartbeat
    // is written meanwhile, after the held read began.
    held.holdReads();
    const heartbeat = (clientId: string) =>
      events.presence.heartbeat(1, 'writer@example.com', { clientId, kind: 'textItem', id: 'welcome' });
    const first = heartbeat('tab-aaaaaaaa');
    await settle();
    const readsBefore = held.reads();
    const second = heartbeat('tab-bbbbbbbb');
    await settle();
    held.releaseReads();
    await Promise.all([first, second]);
    for (let i = 0; i < 5; i += 1) await settle();

    // The held read told the first tab; the read after it, both.
    expect(recorded.presences()).toEqual([[], ['tab-aaaaaaaa'], ['tab-aaaaaaaa', 'tab-bbbbbbbb']]);
    expect(held.reads()).toBeGreaterThan(readsBefore);
  });
});
