import { expect } from 'vitest';
import type { TestContext, Workspace } from '../../helpers/app.js';

export interface LegacyResponse {
  status: number;
  /** Parsed JSON, or the text of any other body. */
  body: any;
  text: string;
  type: string;
}

/** A request to the v0 (`/...`) or v1 (`/v1/...`) API, with the key sent as the CLI sends it. */
export async function legacy(
  ctx: TestContext,
  ws: Pick<Workspace, 'key'> | null,
  url: string,
  options: { method?: 'GET' | 'PUT' | 'POST'; raw?: boolean; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LegacyResponse> {
  const authorization = ws === null ? {} : { authorization: options.raw ? ws.key : `token ${ws.key}` };
  const res = await ctx.app.inject({
    method: options.method ?? 'GET',
    url,
    headers: { ...authorization, ...options.headers },
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
  const type = String(res.headers['content-type'] ?? '');
  return { status: res.statusCode, body: type.includes('json') ? res.json() : res.body, text: res.body, type };
}

/** The JSON body of a GET that must succeed. */
export async function ok(ctx: TestContext, ws: Workspace, url: string): Promise<any> {
  const res = await legacy(ctx, ws, url);
  expect(res.status, `${url}: ${res.text}`).toBe(200);
  return res.body;
}

async function post(ws: Workspace, path: string, body: object) {
  const res = await ws.api.post(path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
}

export const TITLE_RICH = '<strong>Hi</strong> there';

/**
 * A workspace with texts for every legacy rule:
 * - variables `count` (number) and `name` (string); variants `fr` (locale fr), `de`, and `es`
 *   (no text anywhere); folders `onboarding` and `buttons` inside it;
 * - components `welcome` (FINAL, fr WIP), `cart` (plurals, fr FINAL) at the root,
 *   `onboarding.title` (rich text) in `onboarding`, `buttons.ok` (de FINAL) in `buttons`;
 * - project `web` (developer mode on) with block `Header` holding `web.title` (REVIEW, fr FINAL),
 *   `web.body` outside blocks and `web.cta`, published as component `web.cta`; project `app`
 *   (developer mode off) with `app.title`.
 */
export async function seed(ws: Workspace): Promise<void> {
  await post(ws, 'variables', {
    variables: [
      { name: 'count', type: 'number', data: { example: 3 } },
      { name: 'name', type: 'string', data: { example: 'Ann', fallback: 'friend' } },
    ],
  });
  await post(ws, 'variants', {
    variants: [
      { name: 'French', developerId: 'fr', localeCode: 'fr' },
      { name: 'German', developerId: 'de', description: 'Deutsch' },
      { name: 'Spanish', developerId: 'es' },
    ],
  });
  await post(ws, 'componentFolders', {
    folders: [
      { name: 'Onboarding', developerId: 'onboarding' },
      { name: 'Buttons', developerId: 'buttons', parentId: 'onboarding' },
    ],
  });
  await post(ws, 'components', {
    components: [
      {
        developerId: 'welcome',
        name: 'Welcome',
        text: 'Welcome, {{name}}!',
        variables: ['name'],
        status: 'FINAL',
        notes: 'Greeting',
        tags: ['home'],
        variants: [{ variantId: 'fr', text: 'Bienvenue, {{name}} !', status: 'WIP' }],
      },
      {
        developerId: 'cart',
        text: '{{count}} items',
        variables: ['count'],
        plurals: [
          { form: 'other', text: '{{count}} items' },
          { form: 'one', text: '{{count}} item' },
        ],
        variants: [
          {
            variantId: 'fr',
            text: '{{count}} articles',
            status: 'FINAL',
            plurals: [
              { form: 'other', text: '{{count}} articles' },
              { form: 'one', text: '{{count}} article' },
            ],
          },
        ],
      },
      {
        developerId: 'buttons.ok',
        text: 'OK',
        folderId: 'buttons',
        variants: [{ variantId: 'de', text: 'Okay', status: 'FINAL' }],
      },
    ],
  });
  await post(ws, 'components', {
    richText: 'html',
    components: [{ developerId: 'onboarding.title', text: TITLE_RICH, folderId: 'onboarding' }],
  });
  await post(ws, 'projects', {
    projects: [
      { name: 'Web', developerId: 'web', developerMode: true },
      { name: 'App', developerId: 'app' },
    ],
  });
  await post(ws, 'projectBlocks', { projectId: 'web', blocks: [{ name: 'Header', developerId: 'header' }] });
  await post(ws, 'textItems', {
    projectId: 'web',
    textItems: [
      {
        developerId: 'web.title',
        text: 'Title',
        blockId: 'header',
        status: 'REVIEW',
        variants: [{ variantId: 'fr', text: 'Titre', status: 'FINAL' }],
      },
      { developerId: 'web.body', text: 'Body & soul\nLine 2' },
      { developerId: 'web.cta', text: 'Go' },
    ],
  });
  await post(ws, 'components/publish', { textItemId: 'web.cta' });
  await post(ws, 'textItems', { projectId: 'app', textItems: [{ developerId: 'app.title', text: 'App title' }] });
}

/** A multipart body with one file part, as the CLI's form-data sends it. */
export function multipart(field: string, filename: string, content: string, type = 'application/octet-stream') {
  const boundary = '----copydesk-test-boundary';
  const payload = [
    `--${boundary}`,
    `Content-Disposition: form-data; name="${field}"; filename="${filename}"`,
    `Content-Type: ${type}`,
    '',
    content,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * The content fields of text number `i` of the large workspaces of the byte-for-byte tests: a
 * plain text (`plain`), or one of plural forms, or one with a variable, quotes, a backslash and an
 * accent; notes and tags on one in five, a French value on one in three, FINAL on one in 13.
 */
export function sampleContent(i: number, plain: string) {
  return {
    text: i % 11 === 0 ? `One ${i}` : i % 7 === 0 ? 'Hello {{name}} "quoted" \\ é' : plain,
    ...(i % 7 === 0 && i % 11 !== 0 && { variables: ['name'] }),
    ...(i % 5 === 0 && { notes: `Note ${i}`, tags: ['t', `n${i % 3}`] }),
    ...(i % 11 === 0 && {
      plurals: [
        { form: 'one', text: `One ${i}` },
        { form: 'other', text: `Other ${i}` },
      ],
    }),
    ...(i % 3 === 0 && { variants: [{ variantId: 'fr', text: `Texte ${i}`, status: i % 2 ? 'FINAL' : 'WIP' }] }),
    ...(i % 13 === 0 && { status: 'FINAL' }),
  };
}
