import { expect } from 'vitest';
import type { Workspace } from '../../helpers/app.js';

export type Kind = 'textItems' | 'components';

/** Literal texts that must survive every format (the API stores them verbatim). */
export const TRICKY: readonly string[] = [
  "It's Ann's",
  'Say "hi"',
  'C:\\path \\n not a newline',
  '100% sure, 50%% off, %s %d %1$s',
  '@home',
  '?question',
  '{braces} }{ {{notAVariable}}',
  'a | b || c',
  'line one\nline two',
  'Ünïcødé — 日本語 — emoji 👩‍💻🎉',
];

export const CART_EN = { one: '{{count}} item for {{name}}', other: '{{count}} items for {{name}}' };
export const CART_RU = {
  one: '{{count}} товар для {{name}}',
  few: '{{count}} товара для {{name}}',
  many: '{{count}} товаров для {{name}}',
  other: '{{count}} товара (дробь) для {{name}}',
};

export async function post(ws: Workspace, path: string, body: object): Promise<any> {
  const res = await ws.api.post(path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/**
 * The same texts as components and as text items of project `web`: plural `cart` (en, and ru in
 * variant `ru`), `greet` with variables of several types, `order` whose variables are created in
 * the other order than their names sort, `rich` (rich text), `tricky-N`, and `only-base` without
 * variant values. Variants: `fr` (locale fr, with a description) and `ru` (locale ru, none).
 */
export async function seed(ws: Workspace): Promise<void> {
  await post(ws, 'variables', {
    variables: [
      { name: 'zeta', type: 'string', data: { example: 'Z' } },
      { name: 'name', type: 'string', data: { example: 'Ann' } },
      { name: 'count', type: 'number', data: { example: 3 } },
      { name: 'link', type: 'hyperlink', data: { text: 'our site', url: 'https://example.com' } },
      { name: 'alpha', type: 'string', data: { example: 'A' } },
    ],
  });
  await post(ws, 'variants', {
    variants: [
      { name: 'French', developerId: 'fr', description: 'Français "formel"', localeCode: 'fr' },
      { name: 'Russian', developerId: 'ru', localeCode: 'ru' },
    ],
  });
  const texts = [
    {
      developerId: 'cart',
      text: CART_EN.one,
      variables: ['count', 'name'],
      notes: 'Cart badge',
      plurals: Object.entries(CART_EN).map(([form, text]) => ({ form, text })),
      variants: [
        {
          variantId: 'ru',
          text: CART_RU.one,
          plurals: Object.entries(CART_RU).map(([form, text]) => ({ form, text })),
        },
      ],
    },
    {
      developerId: 'greet',
      text: "Hi {{name}}, it's 100% on {{link}}!",
      variables: ['name', 'link'],
      variants: [{ variantId: 'fr', text: "Salut {{name}}, c'est 100% sur {{link}} !" }],
    },
    { developerId: 'order', text: '{{alpha}} then {{zeta}}', variables: ['alpha', 'zeta'] },
    { developerId: 'only-base', text: 'Only base' },
    ...TRICKY.map((text, i) => ({
      developerId: `tricky-${i}`,
      text,
      variants: [{ variantId: 'fr', text: `fr ${text}` }],
    })),
  ];
  await post(ws, 'components', { components: texts.map((t) => ({ ...t, name: t.developerId })) });
  await post(ws, 'components', {
    components: [{ developerId: 'rich', name: 'rich', text: '<p><strong>Bold</strong> and <em>it</em></p>' }],
    richText: 'html',
  });
  await post(ws, 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
  await post(ws, 'textItems', { projectId: 'web', textItems: texts });
  await post(ws, 'textItems', {
    projectId: 'web',
    textItems: [{ developerId: 'rich', text: '<p><strong>Bold</strong> and <em>it</em></p>' }],
    richText: 'html',
  });
}

/** GET /<kind>/export with query parameters (an object `filter` is sent as JSON). */
export async function exportOf(
  ws: Workspace,
  kind: Kind,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const query = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [
      k,
      typeof v === 'object' ? JSON.stringify(v) : String(v),
    ]),
  );
  return ws.api.get(`${kind}/export?${query}`, headers);
}

/** The content type each format's export answers with. */
export const CONTENT_TYPES: Record<string, string> = {
  json_icu: 'application/json; charset=utf-8',
  json_i18next: 'application/json; charset=utf-8',
  json_vue_i18n: 'application/json; charset=utf-8',
  arb: 'application/json; charset=utf-8',
  'ios-strings': 'text/plain; charset=utf-8',
  'ios-stringsdict': 'text/xml; charset=utf-8',
  android: 'text/xml; charset=utf-8',
};

/** The body of a successful export as text, checking its content type. */
export async function file(ws: Workspace, kind: Kind, params: Record<string, unknown>): Promise<string> {
  const res = await exportOf(ws, kind, params);
  expect(res.status, res.raw.body).toBe(200);
  const type = CONTENT_TYPES[params.format as string];
  expect(res.headers['content-type']).toBe(type);
  return res.raw.body;
}

export const KINDS: readonly Kind[] = ['components', 'textItems'];
