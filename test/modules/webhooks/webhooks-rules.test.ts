import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../../src/modules/changes/index.js';
import { refusedAddress } from '../../../src/modules/webhooks/webhooks.address.js';
import { changeRefs, changesJson, eventBody } from '../../../src/modules/webhooks/webhooks.body.js';
import { eventsOfWrite } from '../../../src/modules/webhooks/webhooks.events.js';
import { nextAttemptAt, RETRY_WINDOW_MS } from '../../../src/modules/webhooks/webhooks.retry.js';
import { openKey, sealKey } from '../../../src/modules/webhooks/webhooks.secret.js';

/** The pure rules under delivery: which events a write sends, when to retry, what is refused. */
const change = (kind: Change['kind'], action: Change['action'], fields: Change['fields'] = {}): Change => ({
  kind,
  action,
  fields,
  ref: `${kind}:1`,
  developerId: 'x',
  variantId: null,
});
const names = (changes: Change[]) => eventsOfWrite(changes).map((e) => `${e.name}:${e.changes.length}`);
const status = { status: { before: 'NONE', after: 'FINAL' } };

describe('events of a write', () => {
  it.each([
    ['a text item created', [change('textItem', 'created')], ['textItems.created:1']],
    ['a text item moved', [change('textItem', 'moved')], ['textItems.updated:1']],
    ['a component deleted', [change('component', 'deleted')], ['components.deleted:1']],
    ['a status change', [change('component', 'updated', status)], ['components.updated:1', 'statuses.updated:1']],
    ['a create with a status is no status change', [change('textItem', 'created', status)], ['textItems.created:1']],
    [
      'a rename',
      [change('textItem', 'renamed', { developerId: { before: 'a', after: 'b' } })],
      ['textItems.updated:1', 'developerIds.updated:1'],
    ],
    [
      'a variant rename',
      [change('variant', 'renamed', { developerId: { before: 'a', after: 'b' } })],
      ['developerIds.updated:1', 'variants.changed:1'],
    ],
    [
      'a variant delete that removed text',
      [change('variant', 'deleted'), change('textItem', 'updated'), change('component', 'updated')],
      ['textItems.updated:1', 'components.updated:1', 'variants.changed:1'],
    ],
    [
      'a publish, only components.published',
      [change('component', 'published'), change('textItem', 'updated', { componentId: { before: null, after: 'c' } })],
      ['components.published:2'],
    ],
    [
      'blocks and bases are project changes',
      [change('block', 'created'), change('base', 'updated')],
      ['projects.changed:2'],
    ],
    ['the workflow', [change('statuses', 'updated')], ['statuses.updated:1']],
    [
      'kinds without events',
      [change('webhook', 'created'), change('user', 'created'), change('workspace', 'updated')],
      [],
    ],
    [
      'folders, variables, style guides',
      [change('folder', 'moved'), change('variable', 'created'), change('styleGuide', 'deleted')],
      ['variables.changed:1', 'folders.changed:1', 'styleGuides.changed:1'],
    ],
    [
      'comments, one event per action, in catalogue order',
      [
        change('comment', 'deleted'),
        change('comment', 'created'),
        change('comment', 'created'),
        change('comment', 'resolved'),
        change('comment', 'reopened'),
        change('comment', 'updated'),
      ],
      ['comment.created:2', 'comment.updated:1', 'comment.resolved:1', 'comment.reopened:1', 'comment.deleted:1'],
    ],
    [
      'suggestions, one event per decision; marking one stale is none',
      [
        change('suggestion', 'withdrawn'),
        change('suggestion', 'created'),
        change('suggestion', 'updated'),
        change('suggestion', 'rejected'),
        change('suggestion', 'accepted'),
      ],
      ['suggestion.created:1', 'suggestion.accepted:1', 'suggestion.rejected:1', 'suggestion.withdrawn:1'],
    ],
  ])('%s', (_label, changes, expected) => {
    expect(names(changes)).toEqual(expected);
  });

  it('splits more than 1,000 changes into events of at most 1,000, in order', () => {
    const changes = Array.from({ length: 2500 }, (_, i) => ({
      ...change('component', 'created'),
      developerId: `c${i}`,
    }));
    const events = eventsOfWrite(changes);
    expect(events.map((e) => e.changes.length)).toEqual([1000, 1000, 500]);
    expect(events.flatMap((e) => e.changes.map((c) => c.developerId))).toEqual(changes.map((c) => c.developerId));
  });
});

describe('the retry schedule', () => {
  const queued = 0;
  const mid = () => 0.5;
  it('waits about 30 s, 2 min, 10 min, 1 h, 6 h, then 12 h, within ±20%', () => {
    const expected = [30_000, 120_000, 600_000, 3_600_000, 21_600_000, 43_200_000];
    expected.forEach((delay, i) => {
      expect(nextAttemptAt({ attempt: i + 1, queuedAt: queued, now: 1000, scale: 1, random: mid })).toBe(1000 + delay);
      expect(nextAttemptAt({ attempt: i + 1, queuedAt: queued, now: 1000, scale: 1, random: () => 0 })).toBe(
        1000 + delay * 0.8,
      );
      expect(nextAttemptAt({ attempt: i + 1, queuedAt: queued, now: 1000, scale: 1, random: () => 1 })).toBe(
        1000 + delay * 1.2,
      );
    });
  });
  it('tries last at 24 h after queueing, then gives up; the scale shrinks it all', () => {
    expect(nextAttemptAt({ attempt: 7, queuedAt: queued, now: RETRY_WINDOW_MS - 1000, scale: 1, random: mid })).toBe(
      RETRY_WINDOW_MS,
    );
    expect(nextAttemptAt({ attempt: 8, queuedAt: queued, now: RETRY_WINDOW_MS, scale: 1, random: mid })).toBeNull();
    expect(nextAttemptAt({ attempt: 1, queuedAt: queued, now: 0, scale: 0.001, random: mid })).toBe(30);
    expect(
      nextAttemptAt({ attempt: 3, queuedAt: queued, now: RETRY_WINDOW_MS * 0.001, scale: 0.001, random: mid }),
    ).toBeNull();
  });
});

describe('refused addresses', () => {
  it.each([
    ['169.254.169.254', true, true],
    ['0.0.0.0', true, true],
    ['fe80::1', true, true],
    ['::ffff:169.254.169.254', true, true],
    ['127.0.0.1', false, true],
    ['::1', false, true],
    ['::ffff:127.0.0.1', false, true],
    ['10.1.2.3', false, true],
    ['172.20.0.1', false, true],
    ['192.168.1.1', false, true],
    ['100.64.0.1', false, true],
    ['fd00::1', false, true],
    ['93.184.216.34', false, false],
    ['2606:4700::1111', false, false],
    // Special-purpose ranges, never delivered to: IPv6 forms that carry or tunnel to IPv4 ...
    ['::10.0.0.1', true, true],
    ['::', true, true],
    ['64:ff9b::a00:1', true, true],
    ['64:ff9b::93.184.216.34', true, true],
    ['::ffff:0:10.0.0.1', true, true],
    ['2002:a00:1::1', true, true],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true, true],
    // ... multicast, broadcast, documentation and reserved blocks.
    ['ff02::1', true, true],
    ['ff05::1:3', true, true],
    ['224.0.0.251', true, true],
    ['239.255.255.250', true, true],
    ['255.255.255.255', true, true],
    ['192.0.2.1', true, true],
    ['2001:db8::1', true, true],
    ['240.0.0.1', true, true],
    ['fec0::1', true, true],
    ['100::1', true, true],
  ])('%s: always refused %s, refused unless private allowed %s', (address, always, unlessAllowed) => {
    expect(refusedAddress(address, true) !== null).toBe(always);
    expect(refusedAddress(address, false) !== null).toBe(unlessAllowed);
  });
});

describe('the signing key at rest', () => {
  it('is sealed with the secret, and unreadable with another', () => {
    const secret = randomBytes(32);
    const stored = sealKey('k'.repeat(40), secret);
    expect(stored).not.toContain('kkkk');
    expect(openKey(stored, secret)).toBe('k'.repeat(40));
    expect(openKey(stored, randomBytes(32))).toBeNull();
    expect(openKey(stored, null)).toBeNull();
    expect(openKey(sealKey('plainkey', null), secret)).toBe('plainkey');
  });
});

it('writes the body exactly as JSON.stringify of its payload', () => {
  const changes = [{ id: '1', fields: { text: { before: 'a "quoted" \u2028 ü', after: null } } }];
  const body = eventBody({
    name: 'textItems.updated',
    uuid: 'u',
    workspaceId: 3,
    at: '2026-01-01T00:00:00.000Z',
    actor: 'a@b',
    sequence: 9,
    changes: JSON.stringify(changes),
  });
  expect(JSON.stringify(JSON.parse(body))).toBe(body);
  expect(JSON.parse(body)).toEqual({
    event: 'textItems.updated',
    data: { id: 'u', workspaceId: '3', at: '2026-01-01T00:00:00.000Z', actor: 'a@b', sequence: 9, changes },
  });
});

it("stores an event's changes as ranges of the log, and reads them back in order", async () => {
  // [index in the write, change id]: the write's changes 0-2 share a row (4000-4002), 3 is the
  // next row's first (5000), 5 and 6 follow after a change the event does not carry.
  const stored = changeRefs([
    [0, 4000],
    [1, 4001],
    [2, 4002],
    [3, 5000],
    [5, 7000],
    [6, 7001],
  ]);
  expect(JSON.parse(stored)).toEqual({
    c: [
      [4000, 5000],
      [7000, 7001],
    ],
  });
  const asked: (readonly (readonly [number, number])[])[] = [];
  const json = await changesJson(stored, 1, async (_workspace, ranges) => {
    asked.push(ranges);
    return ranges.map(([from]) => ({ id: String(from) }) as never);
  });
  expect(asked).toEqual([
    [
      [4000, 5000],
      [7000, 7001],
    ],
  ]);
  expect(JSON.parse(json).map((c: { id: string }) => c.id)).toEqual(['4000', '7000']);
  // An event stored when a row held one change names rows: every change of rows 4 to 6.
  await changesJson(JSON.stringify({ r: [[4, 6]] }), 1, async (_workspace, ranges) => {
    asked.push(ranges);
    return [];
  });
  expect(asked.at(-1)).toEqual([[4000, 6999]]);
});
