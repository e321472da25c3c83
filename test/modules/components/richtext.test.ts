import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createComponents, createVariants, list, patchComponents } from './helpers.js';

const ctx = await setupApp();

const richOf = async (ws: Workspace, mode: 'html' | 'html_paragraphs', filter: unknown = {}) =>
  (await list(ws, filter, `&richText=${mode}`)).map((r) => [r.id, r.variantId, r.text, r.richText]);

async function enableSupSub(ws: Workspace, enabled: boolean) {
  await ctx.database.db
    .updateTable('workspaces')
    .set({ sup_sub_enabled: enabled ? 1 : 0 })
    .where('id', '=', ws.id)
    .execute();
}

describe('rich text of components', () => {
  it('parses every text of a richText=html create into plain text and the stored subset', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createComponents(
      ws,
      [
        {
          developerId: 'a',
          text: '<p>Hello <b>big</b> <i onclick="x()">world</i></p><p>line <a href="https://x.test">two</a></p>',
        },
        { developerId: 'b', text: 'Tom &amp; Jerry<script>alert(1)</script><br>next' },
        {
          developerId: 'c',
          text: '<u>1</u> item',
          plurals: [
            { form: 'one', text: '<u>1</u> item' },
            { form: 'other', text: '<s>many</s> items' },
          ],
          variants: [
            { variantId: 'fr', text: '<em>un</em> article', plurals: [{ form: 'one', text: '<em>un</em> article' }] },
          ],
        },
      ],
      { richText: 'html' },
    );
    expect(await richOf(ws, 'html', { variants: [{ id: 'all' }] })).toEqual([
      ['a', null, 'Hello big world\nline two', 'Hello <strong>big</strong> <em>world</em><br />line two'],
      ['b', null, 'Tom & Jerry\nnext', 'Tom &amp; Jerry<br />next'],
      ['c', null, '1 item', '<u>1</u> item'],
      ['c_one', null, '1 item', '<u>1</u> item'],
      ['c_other', null, 'many items', '<s>many</s> items'],
      ['c', 'fr', 'un article', '<em>un</em> article'],
      ['c_one', 'fr', 'un article', '<em>un</em> article'],
    ]);
    expect(await richOf(ws, 'html_paragraphs')).toEqual([
      ['a', null, 'Hello big world\nline two', '<p>Hello <strong>big</strong> <em>world</em></p><p>line two</p>'],
      ['b', null, 'Tom & Jerry\nnext', '<p>Tom &amp; Jerry</p><p>next</p>'],
      ['c', null, '1 item', '<p><u>1</u> item</p>'],
      ['c_one', null, '1 item', '<p><u>1</u> item</p>'],
      ['c_other', null, 'many items', '<p><s>many</s> items</p>'],
    ]);
  });

  it('drops the bold of a text that is bold in its entirety', async () => {
    const ws = await createWorkspace(ctx);
    await createComponents(
      ws,
      [
        { developerId: 'all-bold', text: '<b>Everything <i>bold</i></b>' },
        { developerId: 'part-bold', text: '<b>Partly</b> bold' },
      ],
      { richText: 'html' },
    );
    expect(await richOf(ws, 'html')).toEqual([
      ['all-bold', null, 'Everything bold', 'Everything <em>bold</em>'],
      ['part-bold', null, 'Partly bold', '<strong>Partly</strong> bold'],
    ]);
  });

  it('keeps sup and sub only when the workspace enables them', async () => {
    const ws = await createWorkspace(ctx);
    const text = 'H<sub>2</sub>O and x<sup>2</sup>';
    await createComponents(ws, [{ developerId: 'off', text }], { richText: 'html' });
    await enableSupSub(ws, true);
    await createComponents(ws, [{ developerId: 'on', text }], { richText: 'html' });
    await patchComponents(ws, { updates: [{ developerId: 'off', text: `${text}!` }], richText: 'html' });
    await enableSupSub(ws, false);
    expect(await richOf(ws, 'html')).toEqual([
      ['off', null, 'H2O and x2!', 'H<sub>2</sub>O and x<sup>2</sup>!'],
      ['on', null, 'H2O and x2', 'H<sub>2</sub>O and x<sup>2</sup>'],
    ]);
    await patchComponents(ws, { updates: [{ developerId: 'on', text }], richText: 'html' });
    expect((await richOf(ws, 'html'))[1]).toEqual(['on', null, 'H2O and x2', 'H2O and x2']);
  });

  it('stores markup literally without richText, and renders plain text escaped with line breaks', async () => {
    const ws = await createWorkspace(ctx);
    await createComponents(ws, [{ developerId: 'lit', text: '<b>not bold</b> & more\nsecond line' }]);
    const [plain] = await list(ws);
    expect(plain.text).toBe('<b>not bold</b> & more\nsecond line');
    expect(plain).not.toHaveProperty('richText');
    expect(await richOf(ws, 'html')).toEqual([
      ['lit', null, plain.text, '&lt;b&gt;not bold&lt;/b&gt; &amp; more<br />second line'],
    ]);
    expect((await richOf(ws, 'html_paragraphs'))[0]?.[3]).toBe(
      '<p>&lt;b&gt;not bold&lt;/b&gt; &amp; more</p><p>second line</p>',
    );
  });

  it('replaces stored rich text with plain text on a PATCH without richText, and parses a variant’s text with it', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createComponents(ws, [{ developerId: 'x', text: '<i>styled</i> text' }], { richText: 'html' });
    await patchComponents(ws, {
      updates: [{ developerId: 'x', text: '<b>Gras</b> texte' }],
      variantId: 'fr',
      richText: 'html',
    });
    expect(await richOf(ws, 'html', { variants: [{ id: 'all' }] })).toEqual([
      ['x', null, 'styled text', '<em>styled</em> text'],
      ['x', 'fr', 'Gras texte', '<strong>Gras</strong> texte'],
    ]);
    await patchComponents(ws, { updates: [{ developerId: 'x', text: '<i>plain</i> now' }] });
    expect((await richOf(ws, 'html'))[0]).toEqual(['x', null, '<i>plain</i> now', '&lt;i&gt;plain&lt;/i&gt; now']);
  });
});
