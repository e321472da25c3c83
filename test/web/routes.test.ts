import { describe, expect, it } from 'vitest';
import { keepKeys } from '../../web/src/exportSelection.js';
import {
  type Facts,
  filtersQuery,
  NO_FILTERS,
  parseFilters,
  parsePlace,
  passesAll,
  recordUrl,
  textUrl,
} from '../../web/src/routes.js';

describe('the app’s places as URLs', () => {
  it('reads every place, and nothing else', () => {
    expect(parsePlace('/')).toEqual({ page: 'home' });
    expect(parsePlace('/projects/shop')).toEqual({ page: 'project', projectId: 'shop', blockId: null, textId: null });
    expect(parsePlace('/projects/shop/blocks/header')).toMatchObject({ blockId: 'header', textId: null });
    expect(parsePlace('/projects/shop/texts/a%20b')).toMatchObject({ projectId: 'shop', textId: 'a b' });
    expect(parsePlace('/library')).toEqual({ page: 'library', folderId: null, componentId: null });
    expect(parsePlace('/library/folders/buttons')).toMatchObject({ folderId: 'buttons' });
    expect(parsePlace('/library/components/save')).toMatchObject({ componentId: 'save' });
    expect(parsePlace('/history/textItem/greeting')).toEqual({
      page: 'history',
      kind: 'textItem',
      developerId: 'greeting',
    });
    expect(parsePlace('/settings/variants')).toEqual({ page: 'settings', section: 'variants' });
    expect(parsePlace('/comments')).toEqual({ page: 'comments' });
    expect(parsePlace('/inbox')).toEqual({ page: 'inbox' });
    expect(parsePlace('/releases')).toEqual({ page: 'releases' });
    expect(parsePlace('/releases/r1')).toEqual({ page: 'unknown' });
    expect(parsePlace('/projects/shop/nothing/x')).toEqual({ page: 'unknown' });
    expect(parsePlace(textUrl('shop', 'a/b'))).toMatchObject({ textId: 'a/b' });
  });
});

describe('the list filters in the query string', () => {
  it('round-trips every filter in a fixed order, and drops what means "no restriction"', () => {
    const query =
      'status=NONE,WIP&assignee=me&tags=a,b&variant=fr&state=outdated&integrated=false&plurals=true&variables=true&comments=open&q=pay';
    const filters = parseFilters(query);
    expect(filters).toEqual({
      status: ['NONE', 'WIP'],
      assignee: 'me',
      tags: ['a', 'b'],
      variant: 'fr',
      state: 'outdated',
      integrated: false,
      plurals: true,
      variables: true,
      comments: 'open',
      q: 'pay',
    });
    expect(filtersQuery(filters)).toBe(query);
    expect(parseFilters('assignee=anyone&state=nonsense&plurals=maybe&comments=all')).toEqual(NO_FILTERS);
    expect(filtersQuery(NO_FILTERS)).toBe('');
  });

  it('combines the filters with AND; a facet’s count ignores its own group', () => {
    const fact = (over: Partial<Facts>): Facts => ({
      status: 'NONE',
      assignee: null,
      tags: [],
      integrated: false,
      plurals: false,
      variables: false,
      text: 'x',
      developerId: 'x',
      name: null,
      states: {},
      openComments: 0,
      ...over,
    });
    const me = 'me@example.com';
    const mine = fact({ status: 'WIP', assignee: me, tags: ['cart'], states: { fr: 'outdated' } });
    const other = fact({ status: 'WIP', assignee: 'else@example.com' });
    const filters = { ...NO_FILTERS, status: ['WIP'], assignee: 'me' };
    expect([mine, other].filter((t) => passesAll(filters, t, me))).toEqual([mine]);
    // Counting the assignee options: the status filter applies, the assignee filter does not.
    expect([mine, other].filter((t) => passesAll(filters, t, me, 'assignee'))).toHaveLength(2);
    expect(passesAll({ ...NO_FILTERS, variant: 'fr', state: 'missing' }, other, me)).toBe(true);
    expect(passesAll({ ...NO_FILTERS, variant: 'fr', state: 'outdated' }, mine, me)).toBe(true);
    expect(passesAll({ ...NO_FILTERS, assignee: 'unassigned' }, fact({}), me)).toBe(true);
    expect(passesAll({ ...NO_FILTERS, tags: ['cart', 'x'] }, mine, me)).toBe(false);
    expect(passesAll({ ...NO_FILTERS, comments: 'open' }, mine, me)).toBe(false);
    expect(passesAll({ ...NO_FILTERS, comments: 'open' }, fact({ openComments: 2 }), me)).toBe(true);
  });
});

describe('exporting a selection', () => {
  it('keeps the chosen texts’ keys, their plural keys and ARB metadata', () => {
    const file = { '@@locale': 'en', a: 'A', a_one: 'one A', a_other: 'As', '@a': {}, ab: 'AB', b_one: 'B' };
    expect(keepKeys(file, new Set(['a']))).toEqual({
      '@@locale': 'en',
      a: 'A',
      a_one: 'one A',
      a_other: 'As',
      '@a': {},
    });
  });
});

describe('where a record of the history opens', () => {
  it('a component in the library, a distribution on the Releases page, anything else by search', () => {
    expect(recordUrl('component', 'cta/save')).toBe('/library/components/cta%2Fsave');
    expect(recordUrl('distribution', 'web-app')).toBe('/releases');
    expect(recordUrl('textItem', 'checkout title')).toBe('/search?q=checkout%20title');
  });
});
