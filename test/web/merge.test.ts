import { describe, expect, it } from 'vitest';
import {
  type FieldValue,
  fieldsToSend,
  mergeField,
  mergeFields,
  mergeLists,
  mergeText,
  resolveMerge,
} from '../../web/src/merge.js';

describe('three-way merge of one field', () => {
  const cases: [string, FieldValue, FieldValue, FieldValue, string, FieldValue][] = [
    // name, base, mine, theirs, outcome, merged value
    ['nobody changed it', 'NONE', 'NONE', 'NONE', 'unchanged', 'NONE'],
    ['only I changed it', 'Hello', 'Hello there', 'Hello', 'mine', 'Hello there'],
    ['only they changed it', 'NONE', 'NONE', 'REVIEW', 'theirs', 'REVIEW'],
    ['both made the same change', 'a', 'b', 'b', 'same', 'b'],
    ['both changed it differently', 'a', 'b', 'c', 'conflict', 'b'],
    ['they removed it, I kept it', 'x@example.com', 'x@example.com', null, 'theirs', null],
    ['I set it where there was none', null, '40', null, 'mine', '40'],
    ['both set it differently where there was none', null, '40', '50', 'conflict', '40'],
    ['tags only they changed', ['a'], ['a'], ['a', 'b'], 'theirs', ['a', 'b']],
    ['tags only I changed', ['a'], [], ['a'], 'mine', []],
    ['tags both changed are combined', ['a', 'b'], ['a', 'c'], ['a', 'b', 'd'], 'combined', ['a', 'd', 'c']],
    ['the same tags in the same order are unchanged', ['a', 'b'], ['a', 'b'], ['a', 'b'], 'unchanged', ['a', 'b']],
  ];
  it.each(cases)('%s', (_name, base, mine, theirs, outcome, value) => {
    const merged = mergeField('f', base, mine, theirs);
    expect(merged.outcome).toBe(outcome);
    expect(merged.value).toEqual(value);
  });

  it('combines tag lists: their additions kept, my removals applied, no duplicates', () => {
    expect(mergeLists(['a', 'b'], ['b', 'x'], ['a', 'b', 'x', 'y'])).toEqual(['b', 'x', 'y']);
    expect(mergeLists([], ['x'], ['x'])).toEqual(['x']);
  });
});

describe('the 412 of a writer who changed only the text while another changed status and tags', () => {
  const base = { text: 'Hello', status: 'NONE', tags: [] as string[], notes: '' };
  const mine = { ...base, text: 'Hello <strong>there</strong>' };
  const theirs = { ...base, status: 'REVIEW', tags: ['checkout'] };

  it('keeps their status and tags and my text, asks nothing, and sends only the text', () => {
    const merges = mergeFields(base, mine, theirs);
    expect(merges.map((m) => [m.field, m.outcome])).toEqual([
      ['text', 'mine'],
      ['status', 'theirs'],
      ['tags', 'theirs'],
      ['notes', 'unchanged'],
    ]);
    const { values, unresolved } = resolveMerge(merges, {});
    expect(unresolved).toEqual([]);
    expect(values).toEqual({ text: 'Hello <strong>there</strong>', status: 'REVIEW', tags: ['checkout'], notes: '' });
    expect(fieldsToSend(values, theirs)).toEqual(['text']);
  });
});

describe('fields both changed wait for the writer', () => {
  const merges = mergeFields(
    { text: 'Hi', status: 'NONE', notes: 'a' },
    { text: 'Hi you', status: 'WIP', notes: 'a' },
    { text: 'Hi all', status: 'REVIEW', notes: 'b' },
  );

  it('lists the unanswered conflicts', () => {
    expect(resolveMerge(merges, {}).unresolved).toEqual(['text', 'status']);
    expect(resolveMerge(merges, { text: { take: 'mine' } }).unresolved).toEqual(['status']);
  });

  it('applies keep mine, take theirs and an edited text', () => {
    const answers = [
      [
        { text: { take: 'mine' }, status: { take: 'theirs' } },
        { text: 'Hi you', status: 'REVIEW', notes: 'b' },
      ],
      [
        { text: { take: 'theirs' }, status: { take: 'mine' } },
        { text: 'Hi all', status: 'WIP', notes: 'b' },
      ],
      [
        { text: { take: 'edited', value: 'Hi you all' }, status: { take: 'mine' } },
        { text: 'Hi you all', status: 'WIP', notes: 'b' },
      ],
    ] as const;
    for (const [choices, expected] of answers) {
      const { values, unresolved } = resolveMerge(merges, choices);
      expect(unresolved).toEqual([]);
      expect(values).toEqual(expected);
    }
  });

  it('sends nothing when taking theirs everywhere', () => {
    const { values } = resolveMerge(merges, { text: { take: 'theirs' }, status: { take: 'theirs' } });
    expect(fieldsToSend(values, { text: 'Hi all', status: 'REVIEW', notes: 'b' })).toEqual([]);
  });
});

describe('merging two edits of one text', () => {
  const cases: [string, string, string, string, string | null][] = [
    ['edits of different words', 'Add to cart now', 'Add to basket now', 'Add to cart today', 'Add to basket today'],
    ['one side only', 'Save', 'Save all', 'Save', 'Save all'],
    ['the same edit on both sides', 'Save', 'Save all', 'Save all', 'Save all'],
    ['edits of the same word', 'Add to cart', 'Add to basket', 'Add to bag', null],
    [
      'markup added around another word',
      'Pay now or later',
      'Pay <strong>now</strong> or later',
      'Pay now or never',
      'Pay <strong>now</strong> or never',
    ],
    ['insertions at the same place', 'Hello', 'Hello you', 'Hello all', null],
    ['both empty from nothing', '', 'a', '', 'a'],
  ];
  it.each(cases)('%s', (_name, base, mine, theirs, merged) => {
    expect(mergeText(base, mine, theirs)).toBe(merged);
  });
});
