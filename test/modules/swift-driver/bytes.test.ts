import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { driver, post, seed } from './helpers.js';

// The exact bytes of `Ditto.swift`, compared with files written by the driver that held the whole
// selection and rendered it in one go. The driver now reads page by page and streams its answer;
// these files say that changed nothing. The second workspace holds more keys than a page of the
// texts reader (250 on SQLite, 1,000 on PostgreSQL) with names that clash across pages, so its
// answers span several pages and must still be the single-pass bytes.

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

const clashing = await createWorkspace(ctx);
const pad = (n: number) => String(n).padStart(4, '0');
const KEYS = 1_300;
// `k-0001` and `k.0001` both want `k0001` and come about 1,300 keys apart (`-` sorts before `.`);
// `k.0001_2`... want the numbers the clashes would take; `x`, `X`, `x-2`: a number a later key
// claims as it is; `default`, `get-bundle`, `1a`: reserved names and a leading digit.
const components = [
  ...Array.from({ length: KEYS }, (_, i) => ({ developerId: `k-${pad(i)}`, text: `Dash ${i}` })),
  ...Array.from({ length: KEYS }, (_, i) => ({ developerId: `k.${pad(i)}`, text: `Dot ${i}` })),
  ...Array.from({ length: 40 }, (_, i) => ({ developerId: `k.${pad(i)}-2`, text: `Claimed ${i}` })),
  { developerId: 'x', text: 'x' },
  { developerId: 'X', text: 'X' },
  { developerId: 'x-2', text: 'x-2' },
  { developerId: 'x_3', text: 'x_3' },
  { developerId: 'default', text: 'default' },
  { developerId: 'Default', text: 'Default' },
  { developerId: 'default_2', text: 'default_2' },
  { developerId: 'get-bundle', text: 'get-bundle' },
  { developerId: '1a', text: '1a' },
  { developerId: '1-a', text: '1-a' },
];
for (let from = 0; from < components.length; from += 1_000) {
  await post(clashing, 'components', { components: components.slice(from, from + 1_000) });
}
await post(clashing, 'projects', {
  projects: [
    { name: 'Beta', developerId: 'beta', developerMode: true },
    { name: 'Alpha', developerId: 'alpha', developerMode: true },
  ],
});
const items = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ developerId: `${prefix}${pad(i)}`, text: `${prefix} ${i}` }));
await post(clashing, 'textItems', {
  projectId: 'alpha',
  textItems: [...items('k-', 300), { developerId: 'x', text: 'alpha x' }],
});
await post(clashing, 'textItems', {
  projectId: 'beta',
  textItems: [...items('k.', 700), { developerId: 'X.2', text: 'beta X.2' }, { developerId: 'x.2', text: 'beta x.2' }],
});

const golden = (name: string) => `./golden/${name}.swift`;

/**
 * A large answer in few bytes: its length and SHA-256, then each accessor's name, table and key
 * (what depends on every other key), so a difference shows where it is.
 */
function summary(source: string): string {
  const lines = [`${Buffer.byteLength(source)} bytes, sha256 ${createHash('sha256').update(source).digest('hex')}`];
  const pattern = /public static func (\w+)\(.*\n.*NSLocalizedString\("([^"]*)", tableName: "([^"]*)"/g;
  for (const match of source.matchAll(pattern)) lines.push(`${match[1]} ${match[3]}/${match[2]}`);
  return `${lines.join('\n')}\n`;
}

async function answer(key: string, url: string, body: unknown, authorization = key): Promise<string> {
  const res = await driver(ctx.app, url, authorization, body);
  expect(res.status, res.raw.body.slice(0, 300)).toBe(200);
  expect(res.raw.headers['content-type']).toBe('text/plain; charset=utf-8');
  return res.raw.body;
}

describe('Ditto.swift bytes', () => {
  it.each([
    ['cli-all', {}],
    ['cli-web', { projects: [{ id: 'web' }, { id: 'mobile' }, { id: 'web' }] }],
    ['cli-folders', { components: { folders: [{ id: 'onboarding' }, { id: 'root' }] }, projects: [{ id: 'mobile' }] }],
    [
      'cli-filters',
      {
        components: { folders: [{ id: 'onboarding', excludeNestedFolders: true }] },
        statuses: ['NONE'],
        integrated: false,
      },
    ],
    ['cli-tags', { tags: { values: ['none'] } }],
  ])('POST /v2/cli/swiftDriver %s', async (name, body) => {
    await expect(await answer(ws.key, '/v2/cli/swiftDriver', body)).toMatchFileSnapshot(golden(name));
  });

  it.each([
    [
      'v1-all',
      {
        components: true,
        projects: [{ id: 'web', name: 'Web App' }, 'mobile'],
        localeByVariantId: { fr: 'fr-FR', base: 'en' },
      },
    ],
    ['v1-folders', { components: { folders: ['onboarding', { id: 'other' }], root: true } }],
    ['v1-exclude', { components: { root: false }, projects: [{ id: 'web', exclude_components: true }, 'mobile'] }],
  ])('POST /v1/ios/swift-driver %s', async (name, body) => {
    await expect(await answer(ws.key, '/v1/ios/swift-driver', body, `token ${ws.key}`)).toMatchFileSnapshot(
      golden(name),
    );
  });

  it('answers several pages of clashing names with the single-pass bytes', { timeout: 120_000 }, async () => {
    const cli = await answer(clashing.key, '/v2/cli/swiftDriver', {});
    await expect(summary(cli)).toMatchFileSnapshot('./golden/pages-cli.txt');
    const legacy = { components: true, projects: ['beta', 'alpha'] };
    const v1 = await answer(clashing.key, '/v1/ios/swift-driver', legacy, `token ${clashing.key}`);
    await expect(summary(v1)).toMatchFileSnapshot('./golden/pages-v1.txt');
    // Streamed and compressed as it flows when the client takes gzip: the same bytes once inflated.
    const gzipped = await ctx.app.inject({
      method: 'POST',
      url: '/v2/cli/swiftDriver',
      headers: { authorization: clashing.key, 'accept-encoding': 'gzip' },
      payload: {},
    });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString('utf8') === cli).toBe(true);
  });
});
