import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { driver, seed, signatures, swiftFile } from './helpers.js';
import { accessorsOf } from './swift-grammar.js';

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

const URL = '/v1/ios/swift-driver';
const call = (body: unknown, key: string | null = `token ${ws.key}`) => driver(ctx.app, URL, key, body);
const names = async (body: object) => Object.keys(signatures(swiftFile(await call(body))));

const ROOT = ['_404Title', 'aB', 'aB2', 'cart', 'default_', 'discount', 'getBundle_', 'homeCtaSendPayment', 'linked'];
const ROOT_REST = ['title', 'tricky'];

/** What the 4.x client sends for a config with iosLocales, components and two projects of the same name. */
const CLIENT_BODY = {
  variants: true,
  localeByVariantId: { base: 'en', fr: 'fr-FR' },
  components: { folders: [{ id: 'onboarding', name: 'Onboarding' }], root: true },
  projects: [
    { id: 'web', name: 'Web App', fileName: 'Web App' },
    { id: 'mobile', name: 'Web App', fileName: 'Web App-1', exclude_components: false },
  ],
};

describe('POST /v1/ios/swift-driver', () => {
  it('answers Ditto.swift for a 4.x config: folders hold their direct components, tables as its files', async () => {
    const source = swiftFile(await call(CLIENT_BODY));
    expect(signatures(source)).toEqual({
      _404Title: 'components/404.title()',
      aB: 'components/a-b()',
      aB2: 'components/a.b()',
      cart: 'components/cart(pluralCount: Int, name: String = "there")',
      default_: 'components/default()',
      discount: 'components/discount()',
      getBundle_: 'components/get-bundle()',
      homeCtaSendPayment: 'components/home.cta.send-payment()',
      linked: 'components/linked()',
      mixed:
        'components/mixed(link: String, default_: String, pluralCount_: String, zeta: String = "Zed \\"the\\" \\\\(z)")',
      onboardingHeader: 'components/onboarding.header(name: String = "there")',
      title: 'components/title()',
      tricky: 'components/tricky()',
      itemsLeft: 'web-app/items-left(pluralCount: Int, amount: String = "18")',
      linked2: 'web-app/linked()',
      title2: 'web-app/title(name: String = "there")',
      mobileOnly: 'web-app-1/mobile.only()',
    });
    expect(source).toContain('// Locales (values of localeOverride): en.lproj (base text), fr-FR.lproj (fr)');
  });

  it('takes the key raw or as `token <KEY>`; none or a wrong one is 401', async () => {
    expect(signatures(swiftFile(await call(CLIENT_BODY, ws.key)))).toEqual(
      signatures(swiftFile(await call(CLIENT_BODY))),
    );
    for (const key of [null, 'token cdk_wrong', 'Bearer x']) expect((await call(CLIENT_BODY, key)).status).toBe(401);
  });

  it('follows the client’s component rules: true, root only, folders only, listed folders', async () => {
    const all = await names({ components: true });
    expect(all).toEqual([...ROOT, 'mixed', 'onboardingHeader', 'onboardingStepsOne', 'otherThing', ...ROOT_REST]);
    expect(await names({ components: { root: true } })).toEqual([...ROOT, ...ROOT_REST]);
    expect(await names({ components: { root: { status: 'FINAL' } } })).toEqual([...ROOT, ...ROOT_REST]);
    expect(await names({ components: { root: false } })).toEqual([
      'mixed',
      'onboardingHeader',
      'onboardingStepsOne',
      'otherThing',
    ]);
    expect(await names({ components: { folders: ['onboarding-steps', { id: 'other' }] } })).toEqual([
      'onboardingStepsOne',
      'otherThing',
    ]);
    expect(await names({ components: { folders: [] } })).toEqual([]);
    expect(await names({ components: false, projects: ['mobile'] })).toEqual(['mobileOnly']);
  });

  it('names tables from the stored names when the client sends ids, leaves instances out on request', async () => {
    const plain = swiftFile(await call({ projects: ['web', 'mobile'] }));
    expect(accessorsOf(plain).map((a) => `${a.table}/${a.key}`)).toEqual([
      'web-app/items-left',
      'web-app/linked',
      'web-app/title',
      'web-app-1/mobile.only',
    ]);
    const body = { projects: [{ id: 'web', name: 'Web', exclude_components: true }] };
    expect(accessorsOf(swiftFile(await call(body))).map((a) => `${a.table}/${a.key}`)).toEqual([
      'web/items-left',
      'web/title',
    ]);
  });

  it('refuses a project whose developer mode is off with 403', async () => {
    const res = await call({
      projects: [
        { id: 'web', name: 'Web' },
        { id: 'secret', name: 'Secret' },
      ],
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('projects[1].id: developer mode is off for project secret');
  });

  it('refuses the component library with 403 while the workspace keeps it from v0/v1', async () => {
    const other = await createWorkspace(ctx);
    await seed(other);
    expect((await other.api.patch('workspace', { libraryDeveloperMode: false })).status).toBe(200);
    const own = (body: unknown) => driver(ctx.app, URL, `token ${other.key}`, body);
    const res = await own({ components: true });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('components: developer mode is off for the component library (libraryDeveloperMode)');
    expect((await own({ projects: [{ id: 'web', name: 'Web App' }] })).status).toBe(200);
  });

  it.each([
    [{ projects: [{ id: 'nope', name: 'Nope' }] }, 'projects[0].id: Project with developer ID nope not found'],
    [{ projects: [42] }, 'projects[0] must be a project id or an object with an id'],
    [{ projects: [{ name: 'Web' }] }, 'projects[0].id must be a non-empty string'],
    [{ projects: [{ id: 'web', exclude_components: 'yes' }] }, 'projects[0].exclude_components must be boolean'],
    [
      { components: { folders: [{ id: 'nope', name: 'Nope' }] } },
      'components.folders[0].id: Folder id not found: nope',
    ],
    [{ components: { folders: [7] } }, 'components.folders[0] must be a folder id or an object with an id'],
    [{ components: 'all' }, 'components must be true, false or an object with folders and root'],
    [{ components: { root: 'yes' } }, 'components.root must be boolean or an object'],
    [{ components: { everything: true } }, 'components.everything is not a known field'],
    [{ localeByVariantId: { fr: 3 } }, 'localeByVariantId.fr must be string'],
    [{ format: 'ios-strings' }, 'format is not a known field'],
  ])('answers %j with 400 naming the field', async (body, message) => {
    const res = await call(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("another workspace's key sees nothing of this one", async () => {
    const other = await createWorkspace(ctx);
    const res = await driver(ctx.app, URL, `token ${other.key}`, { projects: [{ id: 'web', name: 'Web App' }] });
    expect(res.status).toBe(400);
    const source = swiftFile(await driver(ctx.app, URL, other.key, { components: true }));
    expect(accessorsOf(source)).toEqual([]);
    expect(source).not.toContain('cart');
  });
});
