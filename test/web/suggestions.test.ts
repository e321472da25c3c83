import { describe, expect, it } from 'vitest';
import {
  diffSummary,
  hasFormatting,
  htmlOf,
  proposalOf,
  type Suggestion,
  suggestionUrl,
} from '../../web/src/suggestions.js';

const target = { kind: 'textItem' as const, developerId: 'checkout', variantId: null };

describe('what a pane sends as a suggestion', () => {
  const theirs = { text: '<p>Pay later</p>', pluralForms: null, status: 'DRAFT', notes: '' };

  it('proposes the new wording as HTML, with the note trimmed', () => {
    const mine = { ...theirs, text: '<p>Pay in three parts</p>' };
    expect(proposalOf(mine, theirs, target, '  Clearer  ')).toEqual({
      textItemId: 'checkout',
      richText: 'html',
      text: '<p>Pay in three parts</p>',
      note: 'Clearer',
    });
  });

  it('names a component and a variant, and leaves out an empty note', () => {
    const mine = { ...theirs, text: '<p>Payer plus tard</p>' };
    expect(proposalOf(mine, theirs, { kind: 'component', developerId: 'pay', variantId: 'fr' }, ' ')).toEqual({
      componentId: 'pay',
      variantId: 'fr',
      richText: 'html',
      text: '<p>Payer plus tard</p>',
    });
  });

  it('is nothing when only fields other than the wording changed', () => {
    expect(proposalOf({ ...theirs, status: 'FINAL', notes: 'x' }, theirs, target)).toBeNull();
  });

  it('sends the whole plural list when a form changes, and an empty list to remove them', () => {
    const plural = { ...theirs, text: '<p>1 item</p>', pluralForms: 'one', 'plural:other': '<p>{{n}} items</p>' };
    const changed = { ...plural, 'plural:other': '<p>{{n}} things</p>' };
    expect(proposalOf(changed, plural, target)).toEqual({
      textItemId: 'checkout',
      richText: 'html',
      plurals: [
        { form: 'one', text: '<p>1 item</p>' },
        { form: 'other', text: '<p>{{n}} things</p>' },
      ],
    });
    const removed = { ...theirs, text: '<p>1 item</p>' };
    expect(proposalOf(removed, plural, target)).toMatchObject({ plurals: [] });
    expect(proposalOf(removed, plural, target)).not.toHaveProperty('text');
  });
});

const suggestion = (over: Partial<Suggestion>): Suggestion => ({
  id: 'sg_1',
  textItemId: 'checkout',
  componentId: null,
  projectId: 'shop',
  variantId: null,
  recordDeleted: false,
  status: 'open',
  author: 'carl@example.com',
  note: null,
  createdAt: '2026-11-28T16:00:00.000Z',
  proposed: { text: 'a', richText: null, plurals: null },
  base: { text: 'b', richText: null, plurals: null, etag: 'x', exists: true },
  decidedAt: null,
  decidedBy: null,
  decisionNote: null,
  ...over,
});

describe('links and words', () => {
  it('links to the text with the suggestion focused', () => {
    expect(suggestionUrl(suggestion({ id: 'sg_a b' }))).toBe('/projects/shop/texts/checkout?suggestion=sg_a%20b');
    expect(suggestionUrl(suggestion({ textItemId: null, componentId: 'pay' }))).toBe(
      '/library/components/pay?suggestion=sg_1',
    );
  });

  it('says how many words changed', () => {
    expect(diffSummary({ added: 3, removed: 1 })).toBe('3 words added, 1 removed');
    expect(diffSummary({ added: 1, removed: 0 })).toBe('1 word added');
    expect(diffSummary({ added: 0, removed: 2 })).toBe('2 words removed');
    expect(diffSummary({ added: 0, removed: 0 })).toBe('no change of words');
  });

  it('shows formatted versions only when there is formatting to see', () => {
    expect(hasFormatting('<p>Pay <strong>later</strong></p>')).toBe(true);
    expect(hasFormatting('<p>Pay later<br>now</p>')).toBe(false);
    expect(hasFormatting(null)).toBe(false);
  });

  it('renders plain text as escaped HTML, rich text as it is', () => {
    expect(htmlOf({ text: 'a <b> & c\nd', richText: null })).toBe('a &lt;b&gt; &amp; c<br>d');
    expect(htmlOf({ text: 'x', richText: '<p><em>x</em></p>' })).toBe('<p><em>x</em></p>');
  });
});
