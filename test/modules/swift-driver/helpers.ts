import { expect } from 'vitest';
import type { App } from '../../../src/app.js';
import type { ApiResponse, Workspace } from '../../helpers/app.js';
import { accessorsOf, grammarProblems, type SwiftAccessor } from './swift-grammar.js';

export async function post(ws: Workspace, path: string, body: object): Promise<any> {
  const res = await ws.api.post(path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** Notes that try to end the comment literal, interpolate and break the line. */
export const TRICKY_NOTES = 'Say "hi" \\(not code) */ tab\there\nsecond line \u0007 é 👩‍💻';
export const TRICKY_TEXT = 'Line one\nLine two "quoted" \\(x) 100%';

const plurals = (forms: Record<string, string>) => Object.entries(forms).map(([form, text]) => ({ form, text }));

export const CART = { one: '{{count}} item for {{name}}', other: '{{count}} items for {{name}}' };
export const CART_FR = { one: '{{count}} article pour {{name}}', other: '{{count}} articles pour {{name}}' };
export const LEFT = { one: '{{amount}} left in one box', other: '{{amount}} left in boxes' };

/**
 * A workspace with every kind of key: variables with and without fallbacks (created in the order
 * name, count, amount, link, default, pluralCount, zeta), variant `fr`, folders `onboarding` >
 * `onboarding-steps` and `other`, components at the root and in folders (plural, with variables,
 * keyword and clashing ids), and projects `web` and `mobile` (both named "Web App", developer
 * mode on) and `secret` (developer mode off). `linked` is a text item of `web` published as a
 * component, so it is also an instance.
 */
export async function seed(ws: Workspace): Promise<void> {
  await post(ws, 'variables', {
    variables: [
      { name: 'name', type: 'string', data: { example: 'Ann', fallback: 'there' } },
      { name: 'count', type: 'number', data: { example: 3 } },
      { name: 'amount', type: 'number', data: { example: 5, fallback: '18' } },
      { name: 'link', type: 'hyperlink', data: { text: 'our site', url: 'https://example.com' } },
      { name: 'default', type: 'string', data: { example: 'd' } },
      { name: 'pluralCount', type: 'string', data: { example: 'p' } },
      { name: 'zeta', type: 'string', data: { example: 'z', fallback: 'Zed "the" \\(z)' } },
    ],
  });
  await post(ws, 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
  await post(ws, 'componentFolders', {
    folders: [
      { name: 'Onboarding', developerId: 'onboarding' },
      { name: 'Steps', developerId: 'onboarding-steps', parentId: 'onboarding' },
      { name: 'Other', developerId: 'other' },
    ],
  });
  const root = [
    { developerId: 'home.cta.send-payment', text: 'Send a payment', notes: TRICKY_NOTES },
    { developerId: 'discount', text: 'Save 100% today', status: 'FINAL' },
    { developerId: 'title', text: 'Library title' },
    {
      developerId: 'cart',
      text: CART.one,
      variables: ['count', 'name'],
      plurals: plurals(CART),
      variants: [{ variantId: 'fr', text: CART_FR.one, plurals: plurals(CART_FR) }],
    },
    { developerId: 'default', text: 'Default' },
    { developerId: '404.title', text: 'Not found' },
    { developerId: 'a.b', text: 'A dot B' },
    { developerId: 'a-b', text: 'A dash B' },
    { developerId: 'get-bundle', text: 'Get bundle' },
    { developerId: 'tricky', text: TRICKY_TEXT },
  ];
  const inFolders = [
    {
      developerId: 'onboarding.header',
      text: 'Thanks, {{name}}!',
      variables: ['name'],
      folderId: 'onboarding',
      variants: [{ variantId: 'fr', text: 'Merci, {{name}} !' }],
    },
    {
      developerId: 'mixed',
      text: '{{zeta}} / {{pluralCount}} / {{default}} / {{link}} 50%',
      variables: ['zeta', 'pluralCount', 'default', 'link'],
      folderId: 'onboarding',
    },
    {
      developerId: 'onboarding.steps.one',
      text: 'Step one of {{amount}}',
      variables: ['amount'],
      folderId: 'onboarding-steps',
    },
    { developerId: 'other.thing', text: 'Other', folderId: 'other' },
  ];
  await post(ws, 'components', { components: [...root, ...inFolders].map((c) => ({ ...c, name: c.developerId })) });
  await post(ws, 'projects', {
    projects: [
      { name: 'Web App', developerId: 'web', developerMode: true },
      { name: 'Web App', developerId: 'mobile', developerMode: true },
      { name: 'Secret', developerId: 'secret', developerMode: false },
    ],
  });
  await post(ws, 'textItems', {
    projectId: 'web',
    textItems: [
      { developerId: 'title', text: 'Welcome, {{name}}', variables: ['name'] },
      { developerId: 'items-left', text: LEFT.one, variables: ['amount'], plurals: plurals(LEFT) },
      { developerId: 'linked', text: 'Linked text' },
    ],
  });
  await post(ws, 'components/publish', { textItemId: 'linked' });
  await post(ws, 'textItems', {
    projectId: 'mobile',
    textItems: [{ developerId: 'mobile.only', text: 'Mobile only' }],
  });
  await post(ws, 'textItems', { projectId: 'secret', textItems: [{ developerId: 'secret.item', text: 'Secret' }] });
}

/** POST a Swift driver route with a key header as given (`null`: none). */
export async function driver(app: App, url: string, authorization: string | null, body: unknown): Promise<ApiResponse> {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: authorization === null ? {} : { authorization },
    payload: body as object,
  });
  const type = String(res.headers['content-type'] ?? '');
  return {
    status: res.statusCode,
    body: type.includes('json') ? JSON.parse(res.body) : res.body,
    headers: res.headers,
    raw: res,
  };
}

/** A successful driver answer: plain text that the Swift grammar reads without a problem. */
export function swiftFile(res: ApiResponse): string {
  expect(res.status, res.raw.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  const source = res.raw.body;
  expect(grammarProblems(source)).toEqual([]);
  return source;
}

/** Accessors as `name -> table/key (parameters)`, the shape the tests compare. */
export function signatures(source: string): Record<string, string> {
  return Object.fromEntries(
    accessorsOf(source).map((a: SwiftAccessor) => [
      a.name,
      `${a.table}/${a.key}(${a.parameters
        .slice(1)
        .map((p) => `${p.name}: ${p.type}${p.defaultValue === null ? '' : ` = ${p.defaultValue}`}`)
        .join(', ')})`,
    ]),
  );
}
