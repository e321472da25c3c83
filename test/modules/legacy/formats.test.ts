import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  describeVariable,
  flatBody,
  fullComponentsBody,
  fullProjectBody,
  type LegacyText,
  nestedBody,
  structuredBody,
} from '../../../src/formats/legacy/index.js';
import { entry, plurals, variable } from '../../formats/fixtures.js';

const text = (id: string, value: string, fields: Partial<LegacyText> = {}): LegacyText => ({
  ...entry(id, value),
  status: 'NONE',
  tags: [],
  ...fields,
});

const count = variable('count', 'number', { example: 3, fallback: '1' }, 0);
const cart = text('cart', '{{count}} items', {
  plurals: plurals({ one: '{{count}} item', other: '{{count}} items' }),
  variables: [count],
});

async function i18n(resources: object, keySeparator: string | false) {
  const instance = i18next.createInstance();
  await instance.init({ lng: 'en', keySeparator, resources: { en: { translation: resources as never } } });
  return instance;
}

describe('flat', () => {
  it('maps ids to texts and plural forms to `<id>_<form>`, which i18next reads as plurals', async () => {
    const body = flatBody([text('home.title', 'Welcome'), cart]);
    expect(body).toEqual({
      'home.title': 'Welcome',
      cart: '{{count}} items',
      cart_one: '{{count}} item',
      cart_other: '{{count}} items',
    });
    const t = (await i18n(body, false)).t;
    expect(t('home.title')).toBe('Welcome');
    expect(t('cart', { count: 1 })).toBe('1 item');
    expect(t('cart', { count: 4 })).toBe('4 items');
  });
});

describe('nested', () => {
  it('splits ids at dots into objects that i18next reads with its default separator', async () => {
    const body = nestedBody([text('home.title', 'Welcome'), text('home.cta.start', 'Start'), cart]);
    expect(body).toEqual({
      cart: '{{count}} items',
      cart_one: '{{count}} item',
      cart_other: '{{count}} items',
      home: { title: 'Welcome', cta: { start: 'Start' } },
    });
    const t = (await i18n(body, '.')).t;
    expect(t('home.cta.start')).toBe('Start');
    expect(t('cart', { count: 1 })).toBe('1 item');
  });

  it.each([
    ['a text and a longer path under it', ['home', 'home.title'], { home: 'home', 'home.title': 'home.title' }],
    ['the longer path first', ['home.title', 'home'], { home: 'home', 'home.title': 'home.title' }],
    ['a path through a text', ['a.b', 'a.b.c', 'a.d'], { a: { b: 'a.b', d: 'a.d' }, 'a.b.c': 'a.b.c' }],
    ['empty segments', ['a..b', 'a.', 'a.c'], { a: { c: 'a.c' }, 'a..b': 'a..b', 'a.': 'a.' }],
  ])('keeps a key that cannot nest whole at the top level: %s', (_, ids, expected) => {
    expect(nestedBody(ids.map((id) => text(id, id)))).toEqual(expected);
  });

  it('treats `__proto__` and `constructor` as plain keys', () => {
    const body = nestedBody([text('a.__proto__', 'p'), text('a.constructor', 'c')]);
    expect(JSON.parse(JSON.stringify(body))).toEqual(JSON.parse('{"a":{"__proto__":"p","constructor":"c"}}'));
  });
});

describe('structured', () => {
  const link = variable('link', 'hyperlink', { text: 'our site', url: 'https://example.com' }, 1);

  it('shows only the fields that hold something, components with name and folder', () => {
    const body = structuredBody(
      [
        text('plain', 'Plain'),
        text('full', 'See {{link}}', { status: 'FINAL', notes: 'A note', tags: ['a', 'b'], variables: [link] }),
        text('comp', 'Hi', { component: { name: 'Greeting', folder: null } }),
        text('nested', 'Yo', { component: { name: 'Yo', folder: 'onboarding' } }),
        cart,
      ],
      { richText: false },
    );
    expect(body).toEqual({
      plain: { text: 'Plain', status: 'NONE' },
      full: {
        text: 'See {{link}}',
        status: 'FINAL',
        notes: 'A note',
        tags: ['a', 'b'],
        variables: { link: { text: 'our site', url: 'https://example.com', __type: 'hyperlink' } },
      },
      comp: { text: 'Hi', status: 'NONE', name: 'Greeting', folder: null },
      nested: { text: 'Yo', status: 'NONE', name: 'Yo', folder: 'onboarding' },
      cart: {
        text: '{{count}} items',
        status: 'NONE',
        variables: { count: { example: 3, fallback: '1', __type: 'number' } },
        plurals: { one: '{{count}} item', other: '{{count}} items' },
      },
    });
  });

  it('adds rich text with each line in <p>: stored markup rendered, plain text escaped', () => {
    const body = structuredBody(
      [
        text('plain', 'a < b & c\nnext'),
        text('rich', 'Bold move', { richText: '<strong>Bold</strong> move' }),
        text('forms', 'one', {
          plurals: [
            { form: 'one', text: 'one', richText: '<em>one</em>' },
            { form: 'other', text: 'many', richText: null },
          ],
        }),
      ],
      { richText: true },
    );
    expect(body.plain?.rich_text).toBe('<p>a &lt; b &amp; c</p><p>next</p>');
    expect(body.rich?.rich_text).toBe('<p><strong>Bold</strong> move</p>');
    expect(body.forms?.plurals).toEqual({
      one: 'one',
      one_rich_text: '<p><em>one</em></p>',
      other: 'many',
      other_rich_text: '<p>many</p>',
    });
  });
});

describe('variables', () => {
  it.each([
    ['string', { example: 'Ann', fallback: 'you' }, { example: 'Ann', fallback: 'you', __type: 'string' }],
    ['number', { example: 21 }, { example: 21, __type: 'number' }],
    ['hyperlink', { text: 'Docs', url: 'https://x.y' }, { text: 'Docs', url: 'https://x.y', __type: 'hyperlink' }],
    ['list', ['a', 'b'], { values: ['a', 'b'], __type: 'list' }],
    ['map', { __type: 'x', k: 'v' }, { entries: { __type: 'x', k: 'v' }, __type: 'map' }],
  ] as const)('describes a %s variable with its type beside its data', (type, data, expected) => {
    expect(describeVariable({ type, data })).toEqual(expected);
  });
});

describe('full', () => {
  const header = { id: 'web', name: 'Web', exportedAt: '2026-01-01T00:00:00.000Z' };

  it('groups a project by block in the order given, other texts apart', () => {
    const body = fullProjectBody(
      header,
      [
        text('h1', 'Title', { block: 'Header' }),
        text('h2', 'Sub', { block: 'Header' }),
        text('b1', 'Body', { block: 'constructor' }),
        text('loose', 'Loose', { block: null, tags: ['x'] }),
      ],
      { richText: false },
    );
    expect(body).toEqual({
      project_id: 'web',
      project_name: 'Web',
      exported_at: '2026-01-01T00:00:00.000Z',
      blocks: {
        Header: { h1: { text: 'Title', status: 'NONE' }, h2: { text: 'Sub', status: 'NONE' } },
        constructor: { b1: { text: 'Body', status: 'NONE' } },
      },
      otherText: { loose: { text: 'Loose', status: 'NONE', tags: ['x'] } },
    });
    expect(Object.keys(body.blocks)).toEqual(['Header', 'constructor']);
  });

  it('shows components as one source with its components', () => {
    const body = fullComponentsBody(
      { ...header, id: 'ditto_component_library', name: 'Component Library' },
      [text('ok', 'OK', { component: { name: 'OK', folder: 'buttons' } })],
      { richText: true },
    );
    expect(body).toEqual({
      project_id: 'ditto_component_library',
      project_name: 'Component Library',
      exported_at: header.exportedAt,
      components: { ok: { text: 'OK', status: 'NONE', rich_text: '<p>OK</p>', name: 'OK', folder: 'buttons' } },
    });
  });
});
