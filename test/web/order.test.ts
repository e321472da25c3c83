import { describe, expect, it } from 'vitest';
import { groupByBlock, moveEntry, reorderSubset } from '../../web/src/order.js';

describe('moving an entry of the project order', () => {
  it('moves up, down and across the list', () => {
    expect(moveEntry(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveEntry(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveEntry(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
  });

  it('answers the same list for a move out of range or onto itself', () => {
    const list = ['a', 'b'];
    expect(moveEntry(list, 0, -1)).toBe(list);
    expect(moveEntry(list, 1, 2)).toBe(list);
    expect(moveEntry(list, 1, 1)).toBe(list);
  });
});

describe('grouping a project’s texts by block', () => {
  const t = (id: string, blockName: string | null) => ({ id, blockName });
  it('one group per block in block order, empty ones too, then the texts outside blocks', () => {
    const groups = groupByBlock(
      [t('a', 'Header'), t('b', 'Header'), t('c', 'Footer'), t('d', null)],
      [
        { id: 'footer', name: 'Footer' },
        { id: 'body', name: 'Body' },
        { id: 'header', name: 'Header' },
      ],
    );
    expect(groups.map((g) => [g.key, g.title, g.texts.map((x) => x.id)])).toEqual([
      ['block:footer', 'Footer', ['c']],
      ['block:body', 'Body', []],
      ['block:header', 'Header', ['a', 'b']],
      ['outside', 'Outside blocks', ['d']],
    ]);
  });

  it('gives the texts of two blocks of one name to the first of them only', () => {
    const groups = groupByBlock(
      [t('a', 'Same')],
      [
        { id: 'one', name: 'Same' },
        { id: 'two', name: 'Same' },
      ],
    );
    expect(groups.map((g) => g.texts.length)).toEqual([1, 0, 0]);
  });
});

describe('applying a saved order to what the panel holds', () => {
  const id = (e: string) => e;
  it('puts the named entries in the saved order, in the places they held', () => {
    // The footer's texts (c, d, e) of a project's flat list: e moves to the top of its block.
    expect(reorderSubset(['a', 'b', 'c', 'd', 'e', 'f'], id, ['e', 'c', 'd'])).toEqual(['a', 'b', 'e', 'c', 'd', 'f']);
    expect(reorderSubset(['x', 'y', 'z'], id, ['z', 'x', 'y'])).toEqual(['z', 'x', 'y']);
  });

  it('leaves the list as it was for keys it does not hold', () => {
    expect(reorderSubset(['a', 'b'], id, ['q', 'r'])).toEqual(['a', 'b']);
    expect(reorderSubset(['a', 'b', 'c'], id, ['c', 'q', 'a'])).toEqual(['c', 'b', 'a']);
  });
});
