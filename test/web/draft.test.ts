import { describe, expect, it } from 'vitest';
import { draftOf, fieldsOf, rebaseDraft, updateOf } from '../../web/src/draft.js';
import { fieldsToSend } from '../../web/src/merge.js';
import { type ApiRecord, groupRecords } from '../../web/src/model.js';

const record = (over: Partial<ApiRecord>): ApiRecord => ({
  id: 'cart',
  text: 'Your cart',
  notes: '',
  characterLimit: null,
  tags: [],
  integrated: false,
  variableIds: [],
  variantId: null,
  pluralForm: null,
  status: 'NONE',
  assignee: null,
  ...over,
});

const [cart] = groupRecords(
  [record({}), record({ text: 'Bonjour {{name}}', variantId: 'fr' }), record({ text: 'Hallo', variantId: 'de' })],
  'textItem',
);
const variables = new Set(['count', 'name']);

describe("a pane's save", () => {
  it('sends only what changed: a status alone sends no text and no variables', () => {
    const base = fieldsOf(draftOf(cart!.base, cart!.tags, 'NONE'), true);
    const mine = { ...base, status: 'REVIEW' };
    const send = fieldsToSend(mine, base);
    expect(
      updateOf(mine, send, { developerId: 'cart', variantId: null, current: cart!, variables, instance: false }),
    ).toEqual({
      developerId: 'cart',
      status: 'REVIEW',
    });
  });

  it('links a variable typed in a plural form and one typed in a variant it did not load', () => {
    const draft = draftOf(cart!.base, cart!.tags, 'NONE');
    const base = fieldsOf(draft, true);
    const mine = fieldsOf(
      {
        ...draft,
        firstForm: 'one',
        plurals: { other: { html: '<p>{{count}} items {{unknown}}</p>', plain: '{{count}} items {{unknown}}' } },
      },
      true,
    );
    const update = updateOf(mine, fieldsToSend(mine, base), {
      developerId: 'cart',
      variantId: null,
      current: cart!,
      variables,
      instance: false,
    });
    expect(update).toEqual({
      developerId: 'cart',
      text: 'Your cart',
      plurals: [
        { form: 'one', text: 'Your cart' },
        { form: 'other', text: '{{count}} items {{unknown}}' },
      ],
      variables: ['count', 'name'],
    });
  });

  it("a variant pane's save lists the base's and the other variants' variables too", () => {
    const [withBase] = groupRecords(
      [record({ text: '{{count}} items' }), record({ text: 'Hallo', variantId: 'de' })],
      'textItem',
    );
    const missing = draftOf(null, [], 'NONE');
    const base = fieldsOf(missing, false);
    expect(base).toMatchObject({ text: '', pluralForms: null, status: 'NONE' });
    const mine = { ...base, text: 'Bonjour <strong>{{name}}</strong>' };
    const update = updateOf(mine, fieldsToSend(mine, base), {
      developerId: 'cart',
      variantId: 'fr',
      current: withBase!,
      variables,
      instance: false,
    });
    expect(update).toMatchObject({
      text: 'Bonjour <strong>{{name}}</strong>',
      plurals: [],
      variables: ['name', 'count'],
    });
  });

  it("never sends an instance's text or variables", () => {
    const base = fieldsOf(draftOf(cart!.base, [], 'NONE'), true);
    const mine = { ...base, text: 'Changed {{name}}', notes: 'n' };
    const update = updateOf(mine, fieldsToSend(mine, base), {
      developerId: 'cart',
      variantId: null,
      current: cart!,
      variables,
      instance: true,
    });
    expect(update).toEqual({ developerId: 'cart', notes: 'n' });
  });
});

describe("another person's save while this pane has unsaved edits", () => {
  const start = draftOf(cart!.base, ['sale'], 'NONE');
  const base = fieldsOf(start, true);

  it('takes their fields, keeps mine, and starts from their version', () => {
    const mine = { ...start, notes: 'my note' };
    const theirs = { ...start, status: 'FINAL', tags: 'sale, new' };
    const rebased = rebaseDraft(mine, base, theirs, true);
    expect(rebased?.draft).toEqual({ ...start, notes: 'my note', status: 'FINAL', tags: 'sale, new' });
    expect(rebased?.baseline).toEqual(fieldsOf(theirs, true));
    // A save now sends my field alone, over theirs.
    expect(fieldsToSend(fieldsOf(rebased!.draft, true), rebased!.baseline)).toEqual(['notes']);
  });

  it('combines tags both changed; a field both changed differently waits for the save to ask', () => {
    const tagged = rebaseDraft({ ...start, tags: 'sale, mine' }, base, { ...start, tags: 'sale, theirs' }, true);
    expect(tagged?.draft.tags).toBe('sale, theirs, mine');
    expect(rebaseDraft({ ...start, status: 'WIP' }, base, { ...start, status: 'FINAL' }, true)).toBeNull();
    const text = (html: string) => ({ html, plain: html });
    expect(rebaseDraft({ ...start, text: text('Mine') }, base, { ...start, text: text('Theirs') }, true)).toBeNull();
  });
});
