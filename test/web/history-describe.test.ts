import { describe, expect, it } from 'vitest';
import {
  acceptedSuggestions,
  type Change,
  fieldName,
  groupChanges,
  recordVerb,
  summary,
  valueText,
} from '../../web/src/history/describe.js';

const ids = { next: 0 };
const change = (over: Partial<Change>): Change => ({
  id: String(++ids.next),
  at: '2026-11-28T10:00:00.000Z',
  actor: 'ann@example.com',
  kind: 'textItem',
  developerId: 'a',
  variantId: null,
  action: 'updated',
  fields: { status: { before: 'WIP', after: 'FINAL' } },
  revision: '7',
  ...over,
});

describe("the history's words", () => {
  it('groups the changes of one write, a record with its variant values once', () => {
    const entries = groupChanges([
      change({ developerId: 'a' }),
      change({ developerId: 'a', variantId: 'fr', fields: { text: { before: 'x', after: 'y' } } }),
      change({ developerId: 'b' }),
      change({ developerId: 'c', revision: '6' }),
      change({ developerId: 'd', revision: null }),
      change({ developerId: 'e', revision: null }),
    ]);
    expect(entries.map((e) => e.records.map((r) => r.developerId))).toEqual([['a', 'b'], ['c'], ['d'], ['e']]);
    expect(entries[0]?.records[0]?.changes).toHaveLength(2);
  });

  it('says what a write of many records did in one sentence', () => {
    const bulk = groupChanges(['a', 'b', 'c'].map((developerId) => change({ developerId })));
    expect(summary(bulk[0]!)).toBe('changed the status of 3 text items');
    const text = groupChanges([
      change({
        developerId: 'a',
        fields: { text: { before: 'x', after: 'y' }, richText: { before: 'x', after: '<b>y</b>' } },
      }),
      change({ developerId: 'b', fields: { tags: { before: [], after: ['t'] } } }),
    ]);
    expect(summary(text[0]!)).toBe('changed the text and tags of 2 text items');
    const deleted = groupChanges([
      change({ developerId: 'a', action: 'deleted', kind: 'component' }),
      change({ developerId: 'b', action: 'deleted', kind: 'component' }),
    ]);
    expect(summary(deleted[0]!)).toBe('deleted 2 components');
    const mixed = groupChanges([
      change({ action: 'created' }),
      change({ developerId: 'z', kind: 'block', action: 'deleted' }),
    ]);
    expect(summary(mixed[0]!)).toBe('changed 2 records');
  });

  it("says a text change written by an accept accepted the suggester's suggestion", () => {
    const accept = [
      change({ developerId: 'a', fields: { text: { before: 'Hi', after: 'Hello' } } }),
      change({
        kind: 'suggestion',
        developerId: 'sg_1',
        action: 'accepted',
        fields: {
          status: { before: 'open', after: 'accepted' },
          suggestedBy: { before: null, after: 'bo@example.com' },
        },
      }),
      change({ developerId: 'a', revision: '6', fields: { text: { before: 'x', after: 'Hi' } } }),
    ];
    const suggestions = acceptedSuggestions(accept);
    expect([...suggestions]).toEqual([['7', 'bo@example.com']]);
    // The workspace's history has both changes of the write in one entry.
    const [written, plain] = groupChanges(accept);
    expect(summary(written!)).toBe("accepted bo@example.com's suggestion on text item a");
    expect(summary(plain!)).toBe('changed the text of 1 text item');
    // A text's own history has only the text's change: the accept is found by its revision.
    const [own, older] = groupChanges(accept.filter((c) => c.kind === 'textItem'));
    expect(recordVerb(own!.records[0]!, suggestions)).toBe("accepted bo@example.com's suggestion on");
    expect(recordVerb(older!.records[0]!, suggestions)).toBe('changed');
    expect(recordVerb(own!.records[0]!)).toBe('changed');
  });

  it('reads values as a writer does: names, none, yes and no, never JSON', () => {
    const statuses = new Map([['WIP', 'Work in progress']]);
    expect(valueText('WIP', statuses)).toBe('Work in progress');
    expect(valueText(null)).toBe('none');
    expect(valueText('')).toBe('none');
    expect(valueText([])).toBe('none');
    expect(valueText(true)).toBe('Yes');
    expect(valueText(['a', 'b'])).toBe('a, b');
    expect(valueText({ example: 'Ada', type: 'string' })).toBe('Example: Ada; Type: string');
    expect(valueText([{ form: 'one', text: '1 item' }])).toBe('one: 1 item');
    expect(fieldName('characterLimit')).toBe('Character limit');
    expect(fieldName('developerMode')).toBe('Developer mode');
  });
});
