/**
 * Rich text in the JSON formats is exactly the `richText` that GET /v2/textItems and
 * GET /v2/components return for the same records: both are fetched over HTTP and compared.
 */
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace, withFilter } from '../../helpers/app.js';
import { i18nextOf, icuOf, type Render, vueI18nOf } from './consumers.js';
import { file, KINDS, type Kind, post } from './helpers.js';

const ctx = await setupApp();
const ws: Workspace = await createWorkspace(ctx);

const PLAIN = [
  {
    developerId: 'compare',
    text: "5 > 3 and 2 < 4 & {{name}}'s @home {x}\nnext line",
    variables: ['name'],
    variants: [{ variantId: 'fr', text: 'fr: 5 > 3 & {{name}}\r\n<b>not markup</b>' }],
  },
  {
    developerId: 'cart',
    text: '{{count}} item & more',
    variables: ['count'],
    plurals: [
      { form: 'one', text: '{{count}} item & more' },
      { form: 'other', text: '{{count}} items < 5' },
    ],
    variants: [
      {
        variantId: 'fr',
        text: '{{count}} article > 0',
        plurals: [
          { form: 'one', text: '{{count}} article > 0' },
          { form: 'many', text: '{{count}} d’articles & plus' },
          { form: 'other', text: '{{count}} articles' },
        ],
      },
    ],
  },
];

const RICH = [
  {
    developerId: 'rich',
    text: '<p><strong>Bold</strong> &amp; <em>{{name}}</em></p><p>2 &lt; 3</p>',
    variables: ['name'],
    variants: [{ variantId: 'fr', text: '<p>Gras <u>souligné</u><br>{{name}}</p>' }],
  },
  {
    developerId: 'rich-cart',
    text: '<em>{{count}}</em> item',
    variables: ['count'],
    plurals: [
      { form: 'one', text: '<em>{{count}}</em> item' },
      { form: 'other', text: 'plain {{count}} items > 1' },
    ],
  },
];

await post(ws, 'variables', {
  variables: [
    { name: 'name', type: 'string', data: { example: 'Ann' } },
    { name: 'count', type: 'number', data: { example: 3 } },
  ],
});
await post(ws, 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
await post(ws, 'components', { components: PLAIN.map((t) => ({ ...t, name: t.developerId })) });
await post(ws, 'components', { components: RICH.map((t) => ({ ...t, name: t.developerId })), richText: 'html' });
await post(ws, 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
await post(ws, 'textItems', { projectId: 'web', textItems: PLAIN });
await post(ws, 'textItems', { projectId: 'web', textItems: RICH, richText: 'html' });

/** The `richText` of every record GET /<kind> returns for the variant (or base text), by record id. */
async function fetchedRichText(kind: Kind, variant: string, mode: string): Promise<Map<string, string>> {
  const res = await ws.api.get(withFilter(kind, { variants: [{ id: variant }] }, `&richText=${mode}`));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map((res.body as Array<{ id: string; richText: string }>).map((r) => [r.id, r.richText]));
}

const fill = (text: string, values: Record<string, unknown>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

const LOADERS: Record<string, (json: Record<string, unknown>, locale: string) => Render | Promise<Render>> = {
  json_i18next: i18nextOf,
  json_vue_i18n: vueI18nOf,
  json_icu: icuOf,
  arb: icuOf,
};

const PRIMARY_IDS = ['compare', 'cart', 'rich', 'rich-cart'];

describe.each(KINDS)('rich text exports of %s', (kind) => {
  describe.each([
    ['base', 'en', [1, 2]],
    ['fr', 'fr', [1, 2, 1_000_000]],
  ] as const)('variant %s', (variant, locale, counts) => {
    it.each(['html', 'html_paragraphs'])('every JSON format renders the fetched richText (%s)', async (mode) => {
      const fetched = await fetchedRichText(kind, variant, mode);
      // Plain records are escaped: `&gt;`, `&lt;`, `&amp;`, and a line break as a tag.
      expect(fetched.get('compare')).toMatch(mode === 'html' ? /&amp;.*<br \/>/ : /&amp;.*<\/p><p>/);
      const params = { richText: mode, ...(variant === 'fr' ? { variantId: 'fr' } : {}) };
      for (const [format, loader] of Object.entries(LOADERS)) {
        const json = JSON.parse(await file(ws, kind, { format, ...params })) as Record<string, unknown>;
        const render = await loader(json, locale);
        const primary = PRIMARY_IDS.filter((id) => fetched.has(id));
        for (const id of primary) {
          const forms = [...fetched.keys()].filter((key) => key.startsWith(`${id}_`));
          if (forms.length === 0) {
            expect(render(id, { name: 'Bo' }), `${format} ${id}`).toBe(fill(fetched.get(id)!, { name: 'Bo' }));
            continue;
          }
          for (const n of counts) {
            const record = `${id}_${new Intl.PluralRules(locale).select(n)}`;
            const expected = fill(fetched.get(record) ?? fetched.get(`${id}_other`)!, { count: n });
            expect(render(id, { count: n }), `${format} ${id} ${n}`).toBe(expected);
          }
        }
        // i18next writes the values as they are: each record's key holds exactly its richText.
        if (format === 'json_i18next') for (const [id, richText] of fetched) expect(json[id], id).toBe(richText);
      }
    });
  });
});
