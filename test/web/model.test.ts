import { describe, expect, it } from 'vitest';
import {
  type ApiRecord,
  groupRecords,
  placeholders,
  pluralCategories,
  translationState,
  usedVariables,
  visibleLength,
} from '../../web/src/model.js';

const record = (over: Partial<ApiRecord>): ApiRecord => ({
  id: 'hello',
  text: 'Hello',
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

describe("the app's grouping of API records into texts", () => {
  it('puts base, plural form and variant records of one text together, in first-seen order', () => {
    const texts = groupRecords(
      [
        record({ id: 'a', text: 'A' }),
        record({ id: 'hello', text: 'One item', etag: '"1.2"' }),
        record({ id: 'hello_one', text: 'One item', pluralForm: 'one' }),
        record({ id: 'hello_other', text: 'Many items', pluralForm: 'other' }),
        record({ id: 'hello', text: 'Un article', variantId: 'fr', status: 'WIP' }),
        record({ id: 'hello_one', text: 'Un article', variantId: 'fr', pluralForm: 'one' }),
      ],
      'textItem',
    );
    expect(texts.map((t) => t.developerId)).toEqual(['a', 'hello']);
    const hello = texts[1];
    expect(hello?.etag).toBe('"1.2"');
    expect(hello?.base.plurals.map((p) => [p.form, p.text])).toEqual([
      ['one', 'One item'],
      ['other', 'Many items'],
    ]);
    expect(hello?.variants.get('fr')).toMatchObject({ text: 'Un article', status: 'WIP' });
    expect(hello?.variants.get('fr')?.plurals).toHaveLength(1);
    // Without rich text asked for, the markup is the escaped text.
    expect(groupRecords([record({ text: 'a < b\nc' })], 'component')[0]?.base.richText).toBe('a &lt; b<br>c');
  });

  it('knows the plural categories of a locale and the placeholders of a text', () => {
    expect(pluralCategories('en')).toEqual(['one', 'other']);
    expect(pluralCategories('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralCategories('ja')).toEqual(['other']);
    expect(pluralCategories('not a locale!')).toEqual(['one', 'other']);
    expect(placeholders('Hi {{name}}, {{ count }} new, {{name}} again')).toEqual(['name', 'count']);
    expect(visibleLength('👋 hé')).toBe(4);
  });

  it('links the workspace variables used anywhere: base, plural forms, variants; unknown names stay out', () => {
    const known = new Set(['count', 'name']);
    expect(
      usedVariables(['Your cart', '{{count}} items', 'Bonjour {{ name }}', '{{foo}} and {{count}}'], known),
    ).toEqual(['count', 'name']);
    expect(placeholders('{{{x}}} {{1a}} {{a.b}}')).toEqual(['x']);
  });

  it("says a variant's state: the server's word, else missing or translated", () => {
    const [told] = groupRecords(
      [
        record({ translationStates: { fr: 'outdated', de: 'missing' } }),
        record({ text: 'Bonjour', variantId: 'fr', translationState: 'outdated' }),
      ],
      'textItem',
    );
    expect(translationState(told!, 'fr')).toBe('outdated');
    expect(translationState(told!, 'de')).toBe('missing');
    const [untold] = groupRecords([record({}), record({ text: 'Bonjour', variantId: 'fr' })], 'textItem');
    expect(translationState(untold!, 'fr')).toBe('translated');
    expect(translationState(untold!, 'de')).toBe('missing');
  });
});
