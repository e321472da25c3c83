import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { legacy, sampleContent, seed } from './helpers.js';

// The exact bytes of the project fetches (`GET /projects/:id` of v0 and v1, `GET /projects` of
// v0), compared with files written when every body was built whole and serialized at once. The
// large project spans several pages of the texts reader (250 on SQLite, 1,000 on PostgreSQL),
// in three blocks and outside them, with variants, plurals, variables, rich text and linked
// instances.

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

const FORMATS = ['full', 'flat', 'structured', 'nested', 'icu', 'android', 'ios-strings', 'ios-stringsdict'];

async function post(path: string, body: object, at = large) {
  const res = await at.api.post(path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(201);
}

const large = await createWorkspace(ctx);
await post('variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
await post('variables', { variables: [{ name: 'name', type: 'string', data: { example: 'Ann' } }] });
await post('components', {
  components: [
    { developerId: 'lib.ok', text: 'OK', variants: [{ variantId: 'fr', text: "D'accord", status: 'FINAL' }] },
    { developerId: 'lib.cancel', text: 'Cancel', status: 'FINAL' },
  ],
});
await post('projects', {
  projects: [
    { name: 'Big', developerId: 'big', developerMode: true },
    { name: 'Small "one"', developerId: 'small', developerMode: true },
    { name: 'Odd', developerId: 'odd', developerMode: true },
  ],
});
await post('projectBlocks', {
  projectId: 'big',
  blocks: [
    { name: 'Header', developerId: 'header' },
    { name: 'Body', developerId: 'body' },
    { name: 'Footer', developerId: 'footer' },
  ],
});
const pad = (n: number) => String(n).padStart(4, '0');
const BLOCKS = ['footer', 'header', null, 'body'];
const ITEMS = 2_200;
for (let from = 0; from < ITEMS; from += 550) {
  // Each batch goes to a block (or none) of its own: the items of a block are created in several
  // batches, so that positions interleave with the other blocks' items.
  for (const [b, blockId] of BLOCKS.entries()) {
    const textItems = Array.from({ length: 550 / 5 }, (_, k) => {
      const i = from + b * 110 + k;
      return {
        developerId: `i.${pad(ITEMS - i)}`,
        ...sampleContent(i, `Text ${i}\nline`),
        ...(blockId !== null && { blockId }),
      };
    });
    await post('textItems', { projectId: 'big', textItems });
  }
  await post('textItems', {
    projectId: 'big',
    richText: 'html',
    textItems: [
      { developerId: `r.${pad(from)}`, text: '<strong>Bold</strong> &amp; <em>more</em>', blockId: 'body' },
      { developerId: `r.${pad(from + 1)}`, text: '<p>One</p><p>Two</p>' },
    ],
  });
}
for (const [n, componentId] of ['lib.ok', 'lib.cancel', 'lib.ok'].entries()) {
  const res = await large.api.post('textItems/instances', {
    componentId,
    projectId: 'big',
    developerId: `inst.${n}`,
    ...(n < 2 && { blockId: n === 0 ? 'header' : 'footer' }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
await post('textItems', { projectId: 'small', textItems: [{ developerId: 'small.a', text: 'A "small" text' }] });
// Blocks JavaScript would reorder or merge: an array-index name, two blocks of one name.
await post('projectBlocks', {
  projectId: 'odd',
  blocks: [
    { name: 'Same', developerId: 's1' },
    { name: 'Other', developerId: 'o' },
    { name: 'Same', developerId: 's2' },
    { name: '12', developerId: 'n' },
  ],
});
await post('textItems', {
  projectId: 'odd',
  textItems: [
    { developerId: 'odd.a', text: 'A', blockId: 's1' },
    { developerId: 'odd.b', text: 'B', blockId: 'o' },
    { developerId: 'odd.c', text: 'C', blockId: 's2' },
    { developerId: 'odd.d', text: 'D', blockId: 'n' },
    { developerId: '42', text: 'Forty-two' },
    { developerId: 'odd.e', text: 'E' },
  ],
});

/** A body as it can be compared: the time of the rendering masked. */
const masked = (text: string) => text.replace(/"exported_at":"[^"]*"/g, '"exported_at":"<time>"');

/** A large body in few bytes: its length and SHA-256 (masked), and its first and last 1,500 characters. */
function summary(text: string): string {
  const body = masked(text);
  const digest = createHash('sha256').update(body).digest('hex');
  return `${Buffer.byteLength(body)} bytes, sha256 ${digest}\n${body.slice(0, 1_500)}\n...\n${body.slice(-1_500)}\n`;
}

async function body(key: string, url: string): Promise<{ text: string; type: string }> {
  const res = await legacy(ctx, { key }, url);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return { text: res.text, type: res.type };
}

describe('project fetches, bytes', () => {
  it.each(FORMATS)('one project (v1), %s', async (format) => {
    const res = await body(ws.key, `/v1/projects/web?format=${format}&includeRichText=true`);
    await expect(`${res.type}\n${masked(res.text)}`).toMatchFileSnapshot(`./golden/project-web-${format}.body.txt`);
  });

  it.each([
    ['project-web-fr', '/projects/web?format=structured&variant=fr'],
    ['project-web-final', '/v1/projects/web?status=FINAL&exclude_components=true'],
    ['projects-all', '/projects'],
    ['projects-flat-library', '/projects?format=flat&projectIds[]=web&projectIds[]=ditto_component_library'],
    ['projects-android', '/projects?format=android&projectIds[]=web&projectIds[]=ditto_component_library'],
    ['projects-nested-fr', '/projects?format=nested&variant=fr&projectIds[]=ditto_component_library&projectIds[]=web'],
  ])('%s', async (name, url) => {
    await expect(masked((await body(ws.key, url)).text)).toMatchFileSnapshot(`./golden/${name}.body.txt`);
  });

  it.each([
    ...FORMATS.map((format) => [`large-project-${format}`, `/v1/projects/big?format=${format}`]),
    ['large-project-full-rich', '/v1/projects/big?includeRichText=true'],
    [
      'large-project-structured-fr-final',
      '/projects/big?format=structured&variant=fr&status=FINAL&includeRichText=true',
    ],
    ['large-project-flat-no-instances', '/projects/big?format=flat&exclude_components=true'],
    ['large-projects-full', '/projects?format=full'],
    ['large-projects-structured-fr', '/projects?format=structured&variant=fr&projectIds[]=small&projectIds[]=big'],
    ['large-projects-icu', '/projects?format=icu&projectIds[]=big&projectIds[]=small'],
    ['large-projects-flat-twice', '/projects?format=flat&projectIds[]=small&projectIds[]=big&projectIds[]=small'],
    ['large-project-odd-full', '/v1/projects/odd'],
    ['large-project-odd-flat', '/v1/projects/odd?format=flat'],
    // The file formats with a variant (its comments), a status, without instances; inside
    // GET /projects (a JSON string each, icu an object); and icu of a key JavaScript moves first.
    ['large-project-android-fr', '/v1/projects/big?format=android&variant=fr'],
    ['large-project-ios-strings-fr-final', '/projects/big?format=ios-strings&variant=fr&status=FINAL'],
    ['large-project-ios-stringsdict-no-instances', '/projects/big?format=ios-stringsdict&exclude_components=true'],
    ['large-project-icu-fr', '/v1/projects/big?format=icu&variant=fr'],
    ['large-project-odd-icu', '/v1/projects/odd?format=icu'],
    ['large-projects-android-fr', '/projects?format=android&variant=fr&projectIds[]=big&projectIds[]=small'],
    ['large-projects-ios-strings', '/projects?format=ios-strings'],
    ['large-projects-ios-stringsdict', '/projects?format=ios-stringsdict&projectIds[]=small&projectIds[]=big'],
    ['large-projects-icu-odd', '/projects?format=icu&projectIds[]=odd&projectIds[]=big'],
  ])('%s, over several pages', { timeout: 60_000 }, async (name, url) => {
    await expect(summary((await body(large.key, url)).text)).toMatchFileSnapshot(`./golden/${name}.txt`);
  });

  it('writes an empty project in every format as built whole', async () => {
    const empty = await createWorkspace(ctx);
    await post('variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] }, empty);
    await post('projects', { projects: [{ name: 'None', developerId: 'none', developerMode: true }] }, empty);
    let out = '';
    for (const format of FORMATS) {
      for (const url of [`/v1/projects/none?format=${format}`, `/projects?format=${format}&variant=fr`]) {
        const res = await body(empty.key, url);
        out += `${url}\n${res.type}\n${masked(res.text)}\n`;
      }
    }
    await expect(out).toMatchFileSnapshot('./golden/empty-project.txt');
  });

  it('answers each format of a large project with its content type', { timeout: 60_000 }, async () => {
    const types: Record<string, string> = {};
    for (const format of FORMATS) types[format] = (await body(large.key, `/v1/projects/big?format=${format}`)).type;
    expect(types).toEqual({
      full: 'application/json; charset=utf-8',
      flat: 'application/json; charset=utf-8',
      structured: 'application/json; charset=utf-8',
      nested: 'application/json; charset=utf-8',
      icu: 'application/json; charset=utf-8',
      android: 'text/xml; charset=utf-8',
      'ios-strings': 'text/plain; charset=utf-8',
      'ios-stringsdict': 'text/xml; charset=utf-8',
    });
  });
});
