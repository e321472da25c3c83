import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { legacy, sampleContent, seed } from './helpers.js';

// The exact bytes of the component fetches, compared with files written when every body was
// built whole and serialized at once. These fetches are now written page by page; a body larger
// than 64 KB is streamed. The large workspace spans several pages of the texts reader (250 on
// SQLite, 1,000 on PostgreSQL).

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

const large = await createWorkspace(ctx);
await large.api.post('variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
await large.api.post('variables', { variables: [{ name: 'name', type: 'string', data: { example: 'Ann' } }] });
await large.api.post('componentFolders', { folders: [{ name: 'Box', developerId: 'box' }] });
const pad = (n: number) => String(n).padStart(4, '0');
const COMPONENTS = 2_600;
for (let from = 0; from < COMPONENTS; from += 1_000) {
  const components = Array.from({ length: Math.min(1_000, COMPONENTS - from) }, (_, k) => {
    const i = from + k;
    return {
      developerId: `c.${pad(i)}`,
      name: `Component ${i}`,
      ...sampleContent(i, `Text ${i}`),
      ...(i % 2 === 0 && { folderId: 'box' }),
    };
  });
  const res = await large.api.post('components', { components });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** A body as it can be compared: the time of the rendering masked. */
const masked = (text: string) => text.replace(/"exported_at":"[^"]*"/g, '"exported_at":"<time>"');

/** A large body in few bytes: its length and SHA-256 (masked), and its first and last 2,000 characters. */
function summary(text: string): string {
  const body = masked(text);
  const digest = createHash('sha256').update(body).digest('hex');
  return `${Buffer.byteLength(body)} bytes, sha256 ${digest}\n${body.slice(0, 2_000)}\n...\n${body.slice(-2_000)}\n`;
}

async function body(key: string, url: string): Promise<string> {
  const res = await legacy(ctx, { key }, url);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(res.type).toBe('application/json; charset=utf-8');
  return res.text;
}

describe('component fetches, bytes', () => {
  it.each([
    ['components-full', '/components'],
    ['components-flat', '/v1/components?format=flat'],
    ['components-structured-rich', '/v1/components?format=structured&includeRichText=true'],
    ['components-root-fr', '/components?format=structured&root_only=true&variant=fr'],
    ['folder-flat-status', '/v1/component-folders/onboarding/components?format=flat&status=NONE'],
    ['library-as-project', '/v1/projects/ditto_component_library?format=full'],
  ])('%s', async (name, url) => {
    await expect(masked(await body(ws.key, url))).toMatchFileSnapshot(`./golden/${name}.body.txt`);
  });

  it.each([
    ['large-full', '/v1/components'],
    ['large-flat-fr', '/components?format=flat&variant=fr'],
    ['large-structured-final', '/v1/components?format=structured&status=FINAL&includeRichText=true'],
    ['large-folder', '/v1/component-folders/box/components?format=structured'],
  ])('%s, over several pages', { timeout: 60_000 }, async (name, url) => {
    await expect(summary(await body(large.key, url))).toMatchFileSnapshot(`./golden/${name}.txt`);
  });
});

describe('component fetches whose keys JavaScript would reorder', () => {
  it('are built whole: array-index ids come first, in numeric order', async () => {
    const odd = await createWorkspace(ctx);
    const res = await odd.api.post('components', {
      components: [
        { developerId: '7', text: 'Seven' },
        { developerId: '10', text: 'Ten' },
        {
          developerId: 'a',
          text: 'One a',
          plurals: [
            { form: 'one', text: 'One a' },
            { form: 'other', text: 'Other a' },
          ],
        },
        { developerId: 'b', text: 'B' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await body(odd.key, '/components?format=flat')).toBe(
      '{"7":"Seven","10":"Ten","a":"One a","a_one":"One a","a_other":"Other a","b":"B"}',
    );
    const structured = await body(odd.key, '/v1/components?format=structured');
    expect(Object.keys(JSON.parse(structured))).toEqual(['7', '10', 'a', 'b']);
    expect(structured.startsWith('{"7":{"text":"Seven"')).toBe(true);
  });
});
