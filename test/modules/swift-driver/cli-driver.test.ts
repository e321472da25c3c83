import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { driver, seed, signatures, swiftFile, TRICKY_NOTES } from './helpers.js';
import { accessorsOf } from './swift-grammar.js';

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

const URL = '/v2/cli/swiftDriver';
const call = (body: unknown, key: string | null = ws.key) => driver(ctx.app, URL, key, body);

const COMPONENTS: Record<string, string> = {
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
  onboardingStepsOne: 'components/onboarding.steps.one(amount: String = "18")',
  otherThing: 'components/other.thing()',
  title: 'components/title()',
  tricky: 'components/tricky()',
};
const PROJECTS: Record<string, string> = {
  mobileOnly: 'mobile/mobile.only()',
  secretItem: 'secret/secret.item()',
  itemsLeft: 'web/items-left(pluralCount: Int, amount: String = "18")',
  linked2: 'web/linked()',
  title2: 'web/title(name: String = "there")',
};

describe('POST /v2/cli/swiftDriver', () => {
  it('answers Ditto.swift: every component and every project item, each with its accessor', async () => {
    const source = swiftFile(await call({}));
    expect(signatures(source)).toEqual({ ...COMPONENTS, ...PROJECTS });
    // Accessors come in table order: components, then projects by developer ID, each by key.
    expect(accessorsOf(source).map((a) => a.table)).toEqual([
      ...Object.values(COMPONENTS).map(() => 'components'),
      'mobile',
      'secret',
      'web',
      'web',
      'web',
    ]);
    expect(source).toMatch(/^import Foundation$/m);
    expect(source).toMatch(/^struct Ditto \{$/m);
  });

  it('reads the string from the locale bundle, formats only when there are arguments, passes the notes', async () => {
    const accessors = accessorsOf(swiftFile(await call({ projects: [{ id: 'web' }] })));
    const byName = new Map(accessors.map((a) => [a.name, a]));
    for (const accessor of accessors) {
      expect(accessor.parameters[0]).toEqual({
        label: '_',
        name: 'localeOverride',
        type: 'String?',
        defaultValue: 'nil',
      });
      const values = accessor.parameters.slice(1).map((p) => p.name);
      expect(accessor.formatArguments, accessor.name).toEqual(values.length === 0 ? null : values);
    }
    expect(byName.get('homeCtaSendPayment')?.comment).toBe(TRICKY_NOTES);
    expect(byName.get('cart')?.formatArguments).toEqual(['pluralCount', 'name']);
    expect(byName.get('cart')?.doc[0]).toBe('{{count}} item for {{name}}');
    expect(byName.get('tricky')?.doc[0]).toBe('Line one Line two "quoted" \\(x) 100%');
  });

  it('narrows by folders (nested or not, root) and projects, as the exports do', async () => {
    const names = async (body: object) => Object.keys(signatures(swiftFile(await call(body))));
    expect(await names({ components: { folders: [{ id: 'onboarding' }] }, projects: [{ id: 'mobile' }] })).toEqual([
      'mixed',
      'onboardingHeader',
      'onboardingStepsOne',
      'mobileOnly',
    ]);
    const direct = { components: { folders: [{ id: 'onboarding', excludeNestedFolders: true }, { id: 'other' }] } };
    expect(await names({ ...direct, projects: [{ id: 'web' }, { id: 'web' }] })).toEqual([
      'mixed',
      'onboardingHeader',
      'otherThing',
      'itemsLeft',
      'linked',
      'title',
    ]);
    const root = await names({ components: { folders: [{ id: 'root' }] }, projects: [{ id: 'mobile' }] });
    expect(root).toEqual(
      ['_404Title', 'aB', 'aB2', 'cart', 'default_', 'discount', 'getBundle_', 'homeCtaSendPayment'].concat([
        'linked',
        'title',
        'tricky',
        'mobileOnly',
      ]),
    );
    expect(await names({ statuses: ['FINAL'], projects: [{ id: 'mobile' }] })).toEqual(['discount']);
  });

  it('is text/plain for an empty workspace too, with the helper and no accessor', async () => {
    const other = await createWorkspace(ctx);
    const source = swiftFile(await driver(ctx.app, URL, other.key, { components: { folders: [] }, projects: [] }));
    expect(accessorsOf(source)).toEqual([]);
    expect(source).toContain('static func getBundle(_ locale: String? = nil) -> Bundle');
  });
});

describe('POST /v2/cli/swiftDriver errors and keys', () => {
  it.each([
    [{ projects: [{ id: 'nope' }] }, 'projects[0].id: Project with developer ID nope not found'],
    [{ projects: [{ id: 'web' }, { id: 'ghost' }] }, 'projects[1].id: Project with developer ID ghost not found'],
    [{ components: { folders: [{ id: 'nope' }] } }, 'components.folders[0].id: Folder id not found: nope'],
    [{ statuses: ['NOPE'] }, "statuses[0]: 'NOPE' is not a status of the workspace"],
    [{ variants: [{ id: 'fr' }] }, 'variants is not a known field'],
    [{ projects: 'web' }, 'projects must be array'],
    [{ projects: [{ name: 'Web' }] }, 'projects[0].id is required'],
    [
      { components: { folders: [{ id: 'onboarding', nested: true }] } },
      'components.folders[0].nested is not a known field',
    ],
  ])('answers %j with 400 naming the field', async (body, message) => {
    const res = await call(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('takes the raw key only: none, a wrong one or `token <KEY>` is 401', async () => {
    for (const key of [null, 'cdk_wrong', `token ${ws.key}`]) {
      const res = await call({}, key);
      expect(res.status, String(key)).toBe(401);
      expect(res.headers['content-type']).toContain('application/json');
    }
  });

  it("another workspace's key sees nothing of this one", async () => {
    const other = await createWorkspace(ctx);
    const res = await driver(ctx.app, URL, other.key, { projects: [{ id: 'web' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('projects[0].id: Project with developer ID web not found');
    const folder = await driver(ctx.app, URL, other.key, { components: { folders: [{ id: 'onboarding' }] } });
    expect(folder.status).toBe(400);
    const source = swiftFile(await driver(ctx.app, URL, other.key, {}));
    expect(accessorsOf(source)).toEqual([]);
    for (const id of ['home.cta.send-payment', 'cart', 'items-left', 'web', 'Web App'])
      expect(source).not.toContain(id);
  });
});
