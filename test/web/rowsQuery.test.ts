import { describe, expect, it } from 'vitest';
import { NO_FILTERS } from '../../web/src/routes.js';
import { rowsQuery } from '../../web/src/rowsQuery.js';

/** The app's filters as GET /v2/textItems/rows takes them (docs/app-list.md). */
describe('rowsQuery', () => {
  const base = { projectId: 'web shop', blockId: null, me: 'ana@example.com', states: [], commented: [] };

  it('is the project alone when nothing is filtered', () => {
    expect(rowsQuery({ ...base, filters: NO_FILTERS })).toBe('projectId=web+shop');
  });

  it('names every filter, `me` as the signed-in email, and the texts with open comments', () => {
    const query = new URLSearchParams(
      rowsQuery({
        ...base,
        blockId: 'header',
        states: ['fr', 'de'],
        commented: ['a', 'b'],
        filters: {
          status: ['WIP', 'FINAL'],
          assignee: 'me',
          tags: ['cart', 'nav'],
          variant: 'fr',
          state: 'outdated',
          integrated: false,
          plurals: true,
          variables: null,
          comments: 'open',
          q: '  pay now ',
        },
      }),
    );
    expect(Object.fromEntries(query)).toEqual({
      projectId: 'web shop',
      blockId: 'header',
      status: 'WIP,FINAL',
      assignee: 'ana@example.com',
      tags: 'cart,nav',
      variant: 'fr',
      state: 'outdated',
      integrated: 'false',
      plurals: 'true',
      ids: 'a,b',
      q: 'pay now',
      states: 'fr,de',
    });
  });

  it('sends a chosen variant without a state (for the counts of its states), and unassigned as it is', () => {
    const query = new URLSearchParams(
      rowsQuery({ ...base, filters: { ...NO_FILTERS, variant: 'fr', assignee: 'unassigned' } }),
    );
    expect(query.get('variant')).toBe('fr');
    expect(query.has('state')).toBe(false);
    expect(query.get('assignee')).toBe('unassigned');
  });
});
