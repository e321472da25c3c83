import { describe, expect, it } from 'vitest';
import { diffFields } from '../../../src/modules/changes/changes.diff.js';

// Fields compare as their JSON would, without serialising the usual values: these pairs check
// that the shortcut agrees with JSON wherever the two could part.
const pairs: [string, unknown, unknown][] = [
  ['equal strings', 'a', 'a'],
  ['different strings', 'a', 'b'],
  ['a string and a number', '1', 1],
  ['zero and minus zero', 0, -0],
  ['NaN and null (both null in JSON)', Number.NaN, null],
  ['NaN and Infinity', Number.NaN, Number.POSITIVE_INFINITY],
  ['equal lists', ['a', 'b'], ['a', 'b']],
  ['reordered lists', ['a', 'b'], ['b', 'a']],
  ['a list and a longer one', ['a'], ['a', 'a']],
  ['an undefined item and null', [undefined], [null]],
  ['equal plural forms', [{ form: 'one', text: 'x' }], [{ form: 'one', text: 'x' }]],
  ['plural forms with other texts', [{ form: 'one', text: 'x' }], [{ form: 'one', text: 'y' }]],
  ['keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }],
  ['an undefined member and none', { a: 1, b: undefined }, { a: 1 }],
  ['a function member and none', { a: 1, f: () => 1 }, { a: 1 }],
  ['an object that serialises itself', { toJSON: () => 'x' }, 'x'],
  ['a date and its JSON', new Date(0), new Date(0).toJSON()],
  ['an empty list and an empty object', [], {}],
];

describe('diffFields', () => {
  it.each(pairs)('compares %s as JSON does', (_name, before, after) => {
    const asJson = JSON.stringify(before) === JSON.stringify(after);
    expect(diffFields({ value: before }, { value: after })).toEqual(
      asJson ? {} : { value: { before: before ?? null, after: after ?? null } },
    );
  });
});
