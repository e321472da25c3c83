import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { post } from '../exports/helpers.js';
import { emptyLike, file, importFile } from './helpers.js';

const ctx = await setupApp();

async function fresh(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await emptyLike(ws);
  await post(ws, 'variables', {
    variables: [
      { name: 'colors', type: 'list', data: ['red', 'blue'] },
      { name: 'sizes', type: 'map', data: { s: 'small', l: 'large' } },
    ],
  });
  await post(ws, 'variants', { variants: [{ name: 'Arabic', developerId: 'ar', localeCode: 'ar' }] });
  return ws;
}

/** The records of GET /textItems (every variant), by record id and variant. */
async function records(ws: Workspace): Promise<Map<string, any>> {
  const filter = encodeURIComponent(JSON.stringify({ variants: [{ id: 'all' }] }));
  const res = await ws.api.get(`textItems?filter=${filter}`);
  expect(res.status).toBe(200);
  return new Map(res.body.map((r: any) => [`${r.id}${r.variantId ? `@${r.variantId}` : ''}`, r]));
}

const historyCount = async (ws: Workspace) => (await ws.api.get('history?limit=1000')).body.changes.length;

describe('plural forms', () => {
  it('reads en, ru and ar forms, each in its locale, and drops the copies of other', async () => {
    const ws = await fresh();
    await importFile(ws, {
      format: 'json_i18next',
      projectId: 'web',
      content: JSON.stringify({ cart: '1 item', cart_one: '1 item', cart_other: '{{count}} items' }),
    });
    await importFile(ws, {
      format: 'json_i18next',
      projectId: 'web',
      variantId: 'ru',
      content: JSON.stringify({
        cart: '1 товар',
        cart_one: '1 товар',
        cart_few: '{{count}} товара',
        cart_many: '{{count}} товаров',
        cart_other: '{{count}} товара',
      }),
    });
    const ar = {
      zero: 'لا عناصر',
      one: 'عنصر واحد',
      two: 'عنصران',
      few: '{{count}} عناصر',
      many: '{{count}} عنصرًا',
      other: '{{count}} عنصر',
    };
    const icu = `{count, plural, ${Object.entries(ar)
      .map(([form, text]) => `${form} {${text.replace('{{count}}', '{count}')}}`)
      .join(' ')}}`;
    await importFile(ws, {
      format: 'json_icu',
      projectId: 'web',
      variantId: 'ar',
      content: JSON.stringify({ cart: icu }),
    });
    const got = await records(ws);
    expect(got.get('cart')?.text).toBe('1 item');
    expect(got.get('cart_other')?.text).toBe('{{count}} items');
    expect(got.has('cart_few')).toBe(false);
    // `few` equals `other` in this file: stored once, and the export writes it back for few.
    expect(got.has('cart_few@ru')).toBe(false);
    expect(got.get('cart_many@ru')?.text).toBe('{{count}} товаров');
    expect(got.get('cart_other@ru')?.text).toBe('{{count}} товара');
    const ruFile = JSON.parse(await file(ws, 'textItems', { format: 'json_i18next', variantId: 'ru' }));
    expect(ruFile.cart_few).toBe('{{count}} товара');
    for (const [form, text] of Object.entries(ar)) expect(got.get(`cart_${form}@ar`)?.text).toBe(text);
    expect(got.get('cart_other')?.variableIds).toEqual(['count']);
    const arFile = JSON.parse(await file(ws, 'textItems', { format: 'json_i18next', variantId: 'ar' }));
    for (const [form, text] of Object.entries(ar)) expect(arFile[`cart_${form}`]).toBe(text);
  });

  it('reads vue-i18n forms by the locale: a leading zero form when there is one more', async () => {
    const ws = await fresh();
    const content = JSON.stringify({ apples: 'no apples | one apple | {count} apples' });
    await importFile(ws, { format: 'json_vue_i18n', projectId: 'web', content });
    const got = await records(ws);
    expect(got.get('apples_zero')?.text).toBe('no apples');
    expect(got.get('apples_one')?.text).toBe('one apple');
    expect(got.get('apples_other')?.text).toBe('{{count}} apples');
  });
});

describe('variables', () => {
  it('maps {name}, {{name}}, selects, xliff:g ids and numbered arguments to the workspace variables', async () => {
    const ws = await fresh();
    await importFile(ws, {
      format: 'json_icu',
      projectId: 'web',
      content: JSON.stringify({
        hello: 'Hi {name}, see {link}',
        pick: 'Pick {colors, select, red {red} blue {blue} other {red}} in {sizes, select, s {small} l {large} other {small}}',
        total: 'Total: {count, number}',
      }),
    });
    await importFile(ws, {
      format: 'json_i18next',
      projectId: 'web',
      content: JSON.stringify({ bye: 'Bye {{name}}, {{unknown}}' }),
    });
    const android = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
  <string name="order_line" ditto_api_id="order-line"><xliff:g id="alpha" example="A">%2$s</xliff:g> then <xliff:g id="zeta">%1$s</xliff:g> at 100%%</string>
</resources>
`;
    await importFile(ws, { format: 'android', projectId: 'web', content: android });
    const got = await records(ws);
    expect(got.get('hello')).toMatchObject({ text: 'Hi {{name}}, see {{link}}', variableIds: ['name', 'link'] });
    expect(got.get('pick')).toMatchObject({ text: 'Pick {{colors}} in {{sizes}}' });
    expect(new Set(got.get('pick')?.variableIds)).toEqual(new Set(['colors', 'sizes']));
    expect(got.get('total')).toMatchObject({ text: 'Total: {{count}}', variableIds: ['count'] });
    expect(got.get('bye')).toMatchObject({ text: 'Bye {{name}}, {{unknown}}', variableIds: ['name'] });
    expect(got.get('order-line')).toMatchObject({ text: '{{alpha}} then {{zeta}} at 100%' });

    // A .strings file names no variable: its arguments take the existing item's, numbered as exported.
    const strings = '"order-line" = "%2$@ puis %1$@ à 100%%";\n';
    const report = await importFile(ws, { format: 'ios-strings', projectId: 'web', variantId: 'fr', content: strings });
    expect(report.updated).toEqual(['order-line']);
    expect((await records(ws)).get('order-line@fr')?.text).toBe('{{alpha}} puis {{zeta}} à 100%');
  });

  it('warns about placeholders that name no variable of the workspace', async () => {
    const ws = await fresh();
    const report = await importFile(ws, {
      format: 'json_icu',
      projectId: 'web',
      content: JSON.stringify({ a: 'Hi {nobody}' }),
    });
    expect(report.warnings).toEqual([
      { key: 'a', message: '{{nobody}} name no variable of the workspace: kept as text' },
    ]);
  });
});

describe('malformed files: a 400 naming the place, nothing written', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'JSON syntax',
      { format: 'json_i18next', content: '{\n  "a": "x",\n  "b": \n}' },
      /^json_i18next file, line 4: not valid JSON/,
    ],
    [
      'a JSON value that is not text',
      { format: 'json_i18next', content: '{"a": "x", "b": 3}' },
      /key "b": must be a string/,
    ],
    [
      'an ICU message',
      { format: 'json_icu', content: '{"ok": "x", "bad": "Hi {name"}' },
      /^json_icu file, key "bad": not a valid ICU message/,
    ],
    [
      'a vue-i18n message',
      { format: 'json_vue_i18n', content: '{"bad": "Hi {name"}' },
      /key "bad": not a valid vue-i18n message/,
    ],
    [
      '.strings without ;',
      { format: 'ios-strings', content: '"a" = "x";\n\n"b" = "y"\n"c" = "z";\n' },
      /^ios-strings file, line 4: expected ";" after the value of "b"/,
    ],
    [
      'a repeated .strings key',
      { format: 'ios-strings', content: '"a" = "x";\n"a" = "y";\n' },
      /line 2: key "a" repeats line 1/,
    ],
    [
      'XML',
      { format: 'android', content: '<resources>\n<string name="a">x</resources>' },
      /^android file, line 2: not well-formed XML/,
    ],
    [
      'an Android apostrophe',
      {
        format: 'android',
        content: '<resources>\n  <string name="a">ok</string>\n  <string name="b">it\'s</string>\n</resources>',
      },
      /line 3 \(b\): unescaped apostrophe/,
    ],
    [
      'a stringsdict without forms',
      {
        format: 'ios-stringsdict',
        content:
          '<plist><dict><key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>x</string></dict></dict></plist>',
      },
      /"a": NSStringLocalizedFormatKey names no plural variable/,
    ],
    [
      'a CSV row',
      { format: 'csv', columns: { key: 'key', text: 'en' }, content: 'key,en\na,"x\nb,y,z\n' },
      /^csv file, line \d+: not valid CSV/,
    ],
    [
      'a repeated CSV key',
      { format: 'csv', columns: { key: 'key', text: 'en' }, content: 'key,en\na,"x\ny"\nb,z\na,w\n' },
      /^csv file, line 5: key "a" repeats line 3/,
    ],
    [
      'a CSV column',
      { format: 'csv', columns: { key: 'id', text: 'en' }, content: 'key,en\na,x\n' },
      /columns.key: no column "id"/,
    ],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    const ws = await fresh();
    const before = await historyCount(ws);
    const res = await ws.api.post('import', { projectId: 'web', ...body });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect((await records(ws)).size).toBe(0);
    expect(await historyCount(ws)).toBe(before);
  });

  it('a variant file imported as base text is refused', async () => {
    const ws = await fresh();
    const content = JSON.stringify({ '__variant-name': 'French', a: 'Bonjour' });
    const res = await ws.api.post('import', { format: 'json_i18next', projectId: 'web', content });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('variant "French": give its variantId');
  });
});

describe('plans and writes', () => {
  const content = JSON.stringify({ a: 'A', b: 'B', b_one: 'B', b_other: 'Bs', 'not an id': 'x' });

  it('a dry run answers the plan and writes nothing', async () => {
    const ws = await fresh();
    const before = await historyCount(ws);
    const report = await importFile(ws, { format: 'json_i18next', projectId: 'web', content, dryRun: true });
    expect(report).toMatchObject({ dryRun: true, created: ['a', 'b'], updated: [], unchanged: [] });
    expect(report.skipped).toEqual([{ key: 'not an id', reason: expect.stringContaining('not a developer ID') }]);
    expect((await records(ws)).size).toBe(0);
    expect(await historyCount(ws)).toBe(before);
  });

  it('imports again as unchanged, updates what changed, records it in history', async () => {
    const ws = await fresh();
    await importFile(ws, { format: 'json_i18next', projectId: 'web', content });
    const again = await importFile(ws, { format: 'json_i18next', projectId: 'web', content });
    expect(again).toMatchObject({ created: [], updated: [], unchanged: ['a', 'b'] });
    const before = await historyCount(ws);
    const changed = JSON.stringify({ a: 'A2', b: 'B', b_one: 'B', b_other: 'Bs' });
    const plan = await importFile(ws, { format: 'json_i18next', projectId: 'web', content: changed, dryRun: true });
    expect(plan).toMatchObject({ updated: ['a'], unchanged: ['b'] });
    await importFile(ws, { format: 'json_i18next', projectId: 'web', content: changed });
    expect((await records(ws)).get('a')?.text).toBe('A2');
    const [last] = (await ws.api.get('history?limit=1')).body.changes;
    expect(last).toMatchObject({ developerId: 'a', action: 'updated' });
    expect(await historyCount(ws)).toBe(before + 1);
  });

  it('skips variant values of texts that do not exist, and items of other projects', async () => {
    const ws = await fresh();
    await post(ws, 'projects', { projects: [{ name: 'App', developerId: 'app' }] });
    await post(ws, 'textItems', { projectId: 'app', textItems: [{ developerId: 'taken', text: 'T' }] });
    const report = await importFile(ws, {
      format: 'json_i18next',
      projectId: 'web',
      variantId: 'fr',
      content: JSON.stringify({ missing: 'M', taken: 'T fr' }),
    });
    expect(report.skipped).toEqual([
      { key: 'missing', variantId: 'fr', reason: 'no text with developer ID missing yet: import its base text first' },
      { key: 'taken', variantId: 'fr', reason: 'text item taken belongs to another project' },
    ]);
  });

  it('skips texts longer than a write may store', async () => {
    const ws = await fresh();
    const content = JSON.stringify({ long: 'x'.repeat(50_001), ok: 'fine' });
    const report = await importFile(ws, { format: 'json_i18next', projectId: 'web', content });
    expect(report).toMatchObject({
      created: ['ok'],
      skipped: [{ key: 'long', reason: 'a text longer than 50000 characters' }],
    });
  });

  it('imports into a block and into the library, into a folder', async () => {
    const ws = await fresh();
    await post(ws, 'projectBlocks', { projectId: 'web', blocks: [{ developerId: 'intro', name: 'Intro' }] });
    await post(ws, 'componentFolders', { folders: [{ developerId: 'ui', name: 'UI' }] });
    await importFile(ws, { format: 'json_i18next', projectId: 'web', blockId: 'intro', content: '{"hi": "Hi"}' });
    await importFile(ws, { format: 'json_i18next', folderId: 'ui', content: '{"ok": "OK"}' });
    expect((await records(ws)).get('hi')?.blockName).toBe('Intro');
    const components = (await ws.api.get('components')).body;
    expect(components).toMatchObject([{ id: 'ok', text: 'OK', folderId: 'ui' }]);
    const res = await ws.api.post('import', {
      format: 'json_i18next',
      projectId: 'web',
      blockId: 'nope',
      content: '{}',
    });
    expect(res.body.message).toBe('blockId: Block id not found: nope');
  });

  it('reads nested JSON and a CSV with several languages', async () => {
    const ws = await fresh();
    await importFile(ws, {
      format: 'json_nested',
      projectId: 'web',
      content: JSON.stringify({ home: { title: 'Home', items_one: 'One', items_other: 'Many' } }),
    });
    const csv =
      'id,English,Français,Notes\nhome.title,Home,Accueil,Page title\nhome.items_one,One,Un,\nhome.items_other,Many,Plusieurs,\nsave,Save,,\n';
    const report = await importFile(ws, {
      format: 'csv',
      projectId: 'web',
      content: csv,
      columns: { key: 'id', text: 'English', notes: 'Notes', variants: { fr: 'Français' } },
    });
    expect(report).toMatchObject({ created: ['save'], updated: ['home.title', 'home.items'], unchanged: [] });
    const got = await records(ws);
    expect(got.get('home.title')).toMatchObject({ text: 'Home', notes: 'Page title' });
    expect(got.get('home.title@fr')?.text).toBe('Accueil');
    expect(got.get('home.items_other@fr')?.text).toBe('Plusieurs');
    expect(got.get('save')?.text).toBe('Save');
    expect(got.has('save@fr')).toBe(false);
  });

  it('takes a multipart upload', async () => {
    const ws = await fresh();
    const boundary = '----copydesk';
    const part = (name: string, value: string, filename?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n${value}\r\n`;
    const payload = `${part('format', 'ios-strings')}${part('projectId', 'web')}${part('dryRun', 'false')}${part('file', '"a" = "Hé";\n', 'Localizable.strings')}--${boundary}--\r\n`;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v2/import',
      headers: { authorization: ws.key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ dryRun: false, created: ['a'] });
    expect((await records(ws)).get('a')?.text).toBe('Hé');
  });

  it('reads a .strings file in UTF-16 with a byte order mark, as Xcode writes it; refuses bytes that are not text', async () => {
    const ws = await fresh();
    const boundary = '----copydesk16';
    const upload = (file: Buffer) => {
      const head = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      return ctx.app.inject({
        method: 'POST',
        url: '/v2/import',
        headers: { authorization: ws.key, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(`${head('format', 'ios-strings')}${head('projectId', 'web')}`),
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Localizable.strings"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          ),
          file,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    };
    const strings = '/* Greeting */\n"hello" = "Grüß dich 👋";\n"bye" = "Tschüs";\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(strings, 'utf16le')]);
    const le16 = await upload(le);
    expect(le16.statusCode, le16.body).toBe(200);
    expect(JSON.parse(le16.body)).toMatchObject({ created: ['hello', 'bye'] });
    const be = Buffer.from(le).swap16();
    expect(be[0]).toBe(0xfe);
    const be16 = await upload(Buffer.concat([be.subarray(0, 2), Buffer.from('"bye" = "Ciao";\n', 'utf16le').swap16()]));
    expect(be16.statusCode, be16.body).toBe(200);
    const got = await records(ws);
    expect(got.get('hello')).toMatchObject({ text: 'Grüß dich 👋', notes: 'Greeting' });
    expect(got.get('bye')?.text).toBe('Ciao');

    const latin1 = await upload(Buffer.from('"x" = "Gr\u00fc\u00df";\n', 'latin1'));
    expect(latin1.statusCode).toBe(400);
    expect(JSON.parse(latin1.body).message).toMatch(/^file: the file is not valid UTF-8/);
    expect((await records(ws)).has('x')).toBe(false);
  });
});

describe('size', () => {
  it('imports 20,000 keys in one request, past the batch limit', async () => {
    const ws = await fresh();
    const content = JSON.stringify(
      Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key-${i}`, `Text ${i}`])),
    );
    const report = await importFile(ws, { format: 'json_i18next', projectId: 'web', content });
    expect(report.created).toHaveLength(20_000);
    const exported = JSON.parse(await file(ws, 'textItems', { format: 'json_i18next' }));
    expect(Object.keys(exported)).toHaveLength(20_000);
    expect(exported['key-19999']).toBe('Text 19999');
  }, 120_000);
});

describe('files written by other tools', () => {
  it('reads an Android strings.xml without ditto_api_id: names, comments, CDATA, quoting, arrays skipped', async () => {
    const ws = await fresh();
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name" translatable="false">Copydesk</string>
    <!-- Shown on the first screen -->
    <string name="welcome">Welcome, <xliff:g id="name" xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">%1$s</xliff:g>!</string>
    <string name="spaced">"  two  spaces "</string>
    <string name="html"><![CDATA[<b>Bold</b> & more]]></string>
    <string name="ref">@string/app_name</string>
    <string-array name="planets"><item>Mercury</item></string-array>
    <plurals name="songs">
        <item quantity="one">%d song</item>
        <item quantity="other">%d songs</item>
    </plurals>
</resources>
`;
    const report = await importFile(ws, { format: 'android', projectId: 'web', content: xml });
    expect(report.created).toEqual(['app_name', 'welcome', 'spaced', 'html', 'songs']);
    expect(report.skipped).toEqual([
      { key: 'ref', reason: 'a reference to another resource (@...), not text' },
      { key: 'planets', reason: '<string-array> resources have no stored equivalent' },
    ]);
    const got = await records(ws);
    expect(got.get('welcome')).toMatchObject({ text: 'Welcome, {{name}}!', notes: 'Shown on the first screen' });
    expect(got.get('spaced')?.text).toBe('  two  spaces ');
    expect(got.get('html')?.text).toBe('<b>Bold</b> & more');
    // Nothing names %d: it stays as written.
    expect(got.get('songs_other')?.text).toBe('%d songs');
  });

  it('reads a Flutter ARB file: =0, =1 as one, placeholders, descriptions', async () => {
    const ws = await fresh();
    const arb = {
      '@@locale': 'en',
      inbox: '{count, plural, =0{No messages} =1{One message} other{{count} messages}}',
      '@inbox': { description: 'Inbox badge', placeholders: { count: { type: 'int' } } },
      greeting: 'Hello {name}',
      twice: '{count, plural, =2{Both} other{{count}}}',
    };
    const report = await importFile(ws, { format: 'arb', projectId: 'web', content: JSON.stringify(arb) });
    expect(report.created).toEqual(['inbox', 'greeting']);
    expect(report.skipped).toEqual([
      { key: 'twice', reason: 'the plural case =2 has no stored equivalent in locale en' },
    ]);
    const got = await records(ws);
    expect(got.get('inbox')).toMatchObject({ text: '{{count}} messages', notes: 'Inbox badge' });
    expect(got.get('inbox_zero')?.text).toBe('No messages');
    expect(got.get('inbox_one')?.text).toBe('One message');
    expect(got.get('greeting')).toMatchObject({ text: 'Hello {{name}}', variableIds: ['name'] });
  });

  it('reads i18next v4 plurals without a plain key, and nested namespaces', async () => {
    const ws = await fresh();
    const content = JSON.stringify({
      cart: { items_one: '{{count}} item', items_other: '{{count}} items' },
      nav: { home: 'Home' },
    });
    const report = await importFile(ws, { format: 'json_nested', projectId: 'web', content });
    expect(report.created).toEqual(['cart.items', 'nav.home']);
    const got = await records(ws);
    expect(got.get('cart.items')?.text).toBe('{{count}} items');
    expect(got.get('cart.items_one')?.text).toBe('{{count}} item');
  });
});

describe('nesting', () => {
  const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;

  it.each(['json_i18next', 'json_vue_i18n', 'json_nested', 'json_icu', 'arb'])(
    '%s: 4,000 levels of objects are a 400 naming the line, and nothing is written',
    async (format) => {
      const ws = await fresh();
      const before = await historyCount(ws);
      const body = await importFile(ws, { format, projectId: 'web', content: deepJson(4000) }, 400);
      expect(body.message).toMatch(
        new RegExp(`^${format} file, line 1: objects and arrays nested more than 64 levels deep`),
      );
      expect(await historyCount(ws)).toBe(before);
    },
  );

  it('a realistic nested file (ten levels) still imports', async () => {
    const ws = await fresh();
    const report = await importFile(ws, { format: 'json_i18next', projectId: 'web', content: deepJson(10) });
    expect(report.created).toEqual(['a.a.a.a.a.a.a.a.a.a']);
  });

  it('Android: 8,000 nested <b> and 100,000 levels of elements are 400s, read before parsing', async () => {
    const ws = await fresh();
    const rich = `<resources>\n<string name="deep">${'<b>'.repeat(8000)}x${'</b>'.repeat(8000)}</string>\n</resources>`;
    const first = await importFile(ws, { format: 'android', projectId: 'web', content: rich }, 400);
    expect(first.message).toMatch(/^android file, line 2: elements nested more than 64 levels deep/);
    const huge = `<resources>${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}</resources>`;
    const second = await importFile(ws, { format: 'android', projectId: 'web', content: huge }, 400);
    expect(second.message).toMatch(/elements nested more than 64 levels deep/);
    // Comments, CDATA and self-closing elements do not count as levels.
    const fine = `<?xml version="1.0"?>\n<!-- <a><b><c> -->\n<resources>${'<br/>'.repeat(100)}<string name="ok"><![CDATA[<<<<]]></string></resources>`;
    expect((await importFile(ws, { format: 'android', projectId: 'web', content: fine })).created).toEqual(['ok']);
  });
});

describe('preview per key, skip, where new texts go', () => {
  it('lists every key with its action and the old and new text of an update', async () => {
    const ws = await fresh();
    await importFile(ws, {
      format: 'json_i18next',
      projectId: 'web',
      content: JSON.stringify({ a: 'Old', b: 'Same' }),
    });
    const content = JSON.stringify({ a: 'New', b: 'Same', c: 'Fresh', 'bad key': 'x' });
    const plan = await importFile(ws, { format: 'json_i18next', projectId: 'web', content, dryRun: true });
    expect(plan.keys).toEqual([
      { key: 'a', action: 'update', changes: [{ field: 'text', before: 'Old', after: 'New' }] },
      { key: 'b', action: 'unchanged', changes: [] },
      { key: 'c', action: 'create', changes: [{ field: 'text', before: null, after: 'Fresh' }] },
      { key: 'bad key', action: 'skip', reason: expect.stringContaining('not a developer ID'), changes: [] },
    ]);
    const fr = await importFile(ws, {
      format: 'json_i18next',
      projectId: 'web',
      variantId: 'fr',
      content: JSON.stringify({ a: 'Nouveau', z: 'Z' }),
      dryRun: true,
    });
    expect(fr.keys).toEqual([
      { key: 'a', action: 'update', changes: [{ variantId: 'fr', field: 'text', before: null, after: 'Nouveau' }] },
      { key: 'z', action: 'skip', reason: expect.stringContaining('fr: no text with developer ID z'), changes: [] },
    ]);
  });

  it('skips the keys the request names and writes nothing of them', async () => {
    const ws = await fresh();
    await importFile(ws, { format: 'json_i18next', projectId: 'web', content: JSON.stringify({ a: 'Old' }) });
    const content = JSON.stringify({ a: 'New', b: 'B', c: 'C' });
    const body = { format: 'json_i18next', projectId: 'web', content, skip: ['a', 'c'] };
    const plan = await importFile(ws, { ...body, dryRun: true });
    expect(plan).toMatchObject({ created: ['b'], updated: [], skipped: [{ key: 'a' }, { key: 'c' }] });
    expect(plan.keys.map((k: any) => [k.key, k.action])).toEqual([
      ['a', 'skip'],
      ['b', 'create'],
      ['c', 'skip'],
    ]);
    const before = await historyCount(ws);
    await importFile(ws, body);
    const now = await records(ws);
    expect(now.get('a')?.text).toBe('Old');
    expect(now.has('c')).toBe(false);
    expect(now.get('b')?.text).toBe('B');
    expect(await historyCount(ws)).toBe(before + 1);
    const bad = await ws.api.post('import', { ...body, skip: 'a' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('skip');
  });

  it('new texts go into the block (or folder) named; updates stay where they are', async () => {
    const ws = await fresh();
    await post(ws, 'projectBlocks', { projectId: 'web', blocks: [{ developerId: 'intro', name: 'Intro' }] });
    await importFile(ws, { format: 'json_i18next', projectId: 'web', content: JSON.stringify({ a: 'A' }) });
    await importFile(ws, {
      format: 'json_i18next',
      projectId: 'web',
      blockId: 'intro',
      content: JSON.stringify({ a: 'A2', n: 'N' }),
    });
    const now = await records(ws);
    expect(now.get('n')?.blockName).toBe('Intro');
    expect(now.get('a')?.blockName ?? null).toBeNull();
    expect(now.get('a')?.text).toBe('A2');
  });

  it('takes skip in a multipart upload as a JSON list', async () => {
    const ws = await fresh();
    const boundary = 'b0undary';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = `${part('format', 'json_i18next')}${part('projectId', 'web')}${part('skip', '["a"]')}${part('content', '{"a":"A","b":"B"}')}--${boundary}--\r\n`;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v2/import',
      headers: { authorization: ws.key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ created: ['b'], skipped: [{ key: 'a' }] });
  });
});
