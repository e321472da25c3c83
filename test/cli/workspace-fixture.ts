import { expect } from 'vitest';
import type { Api } from '../helpers/app.js';

/**
 * A workspace with something of every kind, written through the API as a team would: a renamed
 * workflow, users, variants, variables of each type, nested folders, components with plurals,
 * variants and rich text, a base, projects with blocks in a custom order, text items derived from
 * the base, a published text item, a style guide with rules and terms.
 */
export async function seedWorkspace(api: Api, extraUser: string): Promise<void> {
  const ok = async (request: Promise<{ status: number; body: unknown }>) => {
    const res = await request;
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body as any;
  };
  await ok(api.patch('workspace', { baseLanguage: 'en-GB', libraryDeveloperMode: true }));
  await ok(
    api.put('statuses', {
      statuses: [
        { id: 'NONE', name: 'Draft' },
        { id: 'WIP', name: 'Writing' },
        { id: 'LEGAL', name: 'Legal review' },
        { id: 'FINAL', name: 'Final' },
      ],
    }),
  );
  await ok(
    api.post('variants', {
      variants: [
        { name: 'French', developerId: 'fr', localeCode: 'fr', description: 'France' },
        { name: 'German', developerId: 'de', localeCode: 'de-DE' },
        { name: 'Short', developerId: 'short' },
      ],
    }),
  );
  await ok(
    api.post('variables', {
      variables: [
        { name: 'user', type: 'string', data: { example: 'Ada', fallback: 'you' } },
        { name: 'count', type: 'number', data: { example: 3 } },
        { name: 'help', type: 'hyperlink', data: { text: 'Help', url: 'https://example.com/help' } },
        { name: 'plans', type: 'list', data: ['Free', 'Pro'] },
        { name: 'colours', type: 'map', data: { red: 'Red', blue: 'Blue' } },
      ],
    }),
  );
  await ok(
    api.post('componentFolders', {
      folders: [
        { name: 'Checkout', developerId: 'checkout' },
        { name: 'Cart', developerId: 'cart', parentId: 'checkout' },
        { name: 'Errors', developerId: 'errors' },
      ],
    }),
  );
  await ok(
    api.post('components', {
      components: [
        {
          developerId: 'cart.title',
          name: 'Cart title',
          text: 'Your cart',
          folderId: 'cart',
          tags: ['cart', 'title'],
          status: 'FINAL',
          assignee: extraUser,
          characterLimit: 20,
          integrated: true,
          notes: 'Top of the page',
          variants: [
            { variantId: 'fr', text: 'Votre panier', status: 'WIP', notes: 'fr note', characterLimit: 30 },
            { variantId: 'de', text: 'Ihr Warenkorb', assignee: extraUser },
          ],
        },
        {
          developerId: 'cart.items',
          name: 'Items',
          text: '{{count}} item',
          folderId: 'cart',
          variables: ['count'],
          plurals: [
            { form: 'one', text: '{{count}} item' },
            { form: 'other', text: '{{count}} items' },
          ],
          variants: [
            {
              variantId: 'fr',
              text: '{{count}} article',
              plurals: [
                { form: 'one', text: '{{count}} article' },
                { form: 'other', text: '{{count}} articles' },
              ],
            },
          ],
        },
        { developerId: 'error.generic', text: 'Something went wrong', folderId: 'errors' },
        { developerId: 'root.hello', text: 'Hello {{user}}', variables: ['user'] },
      ],
    }),
  );
  await ok(
    api.post('components', {
      richText: 'html',
      components: [
        {
          developerId: 'legal.terms',
          text: 'Read the <strong>terms</strong> and <em>conditions</em>',
          variants: [{ variantId: 'fr', text: 'Lisez les <u>conditions</u>' }],
        },
      ],
    }),
  );
  await ok(api.post('bases', { bases: [{ name: 'Core', developerId: 'core' }] }));
  await ok(
    api.post('projects', {
      projects: [
        { name: 'Web', developerId: 'web', baseId: 'core', developerMode: true },
        { name: 'Mobile', developerId: 'mobile' },
      ],
    }),
  );
  await ok(
    api.post('textItems', {
      baseId: 'core',
      textItems: [
        { developerId: 'core.ok', text: 'OK' },
        { developerId: 'core.cancel', text: 'Cancel', variants: [{ variantId: 'fr', text: 'Annuler' }] },
      ],
    }),
  );
  await ok(
    api.post('projectBlocks', {
      projectId: 'web',
      blocks: [
        { name: 'Header', developerId: 'header' },
        { name: 'Footer', developerId: 'footer' },
      ],
    }),
  );
  await ok(
    api.post('textItems', {
      projectId: 'web',
      textItems: [
        { developerId: 'web.z-title', text: 'Welcome, {{user}}', blockId: 'header', variables: ['user'] },
        {
          developerId: 'web.a-sub',
          text: 'Pick a plan',
          blockId: 'header',
          tags: ['plans'],
          status: 'LEGAL',
          assignee: extraUser,
          characterLimit: 40,
          notes: 'Under the title',
          variants: [
            { variantId: 'fr', text: 'Choisissez', status: 'FINAL', notes: 'n', characterLimit: 12 },
            { variantId: 'short', text: 'Plan' },
          ],
        },
        { developerId: 'web.ok', text: 'OK', baseTextItemId: 'core.ok' },
        { developerId: 'web.copyright', text: '© 2026', blockId: 'footer' },
        {
          developerId: 'web.files',
          text: 'One file',
          plurals: [
            { form: 'one', text: 'One file' },
            { form: 'other', text: 'Many files' },
          ],
          integrated: true,
        },
        { developerId: 'web.loose', text: 'Line one\nline two' },
      ],
    }),
  );
  await ok(
    api.post('textItems', {
      projectId: 'web',
      richText: 'html',
      textItems: [{ developerId: 'web.promo', text: 'Save <strong>20%</strong> today', blockId: 'footer' }],
    }),
  );
  await ok(
    api.put('projectOrder', {
      projectId: 'web',
      blockIds: ['footer', 'header'],
      textItemIds: ['web.a-sub', 'web.loose', 'web.z-title'],
    }),
  );
  await ok(
    api.post('textItems', {
      projectId: 'mobile',
      textItems: [
        { developerId: 'mobile.cta', text: 'Buy now', status: 'WIP' },
        { developerId: 'mobile.banner', text: 'Banner' },
      ],
    }),
  );
  await ok(api.post('components/publish', { textItemId: 'mobile.cta', name: 'Call to action', folderId: 'checkout' }));
  await ok(
    api.post('styleguides', {
      styleguides: [
        {
          name: 'French voice',
          developerId: 'fr-voice',
          description: 'How we write French',
          variantId: 'fr',
          enabledByDefault: true,
          sections: [
            { sectionId: 'tone', kind: 'rules', name: 'Tone' },
            { sectionId: 'words', kind: 'wordlist', name: 'Words' },
          ],
        },
      ],
    }),
  );
  await ok(
    api.post('styleguides/rules', {
      rules: [
        {
          styleguideId: 'fr-voice',
          sectionId: 'tone',
          developerId: 'no-shouting',
          name: 'No shouting',
          description: 'Avoid capitals',
          examples: [{ before: 'ACHETER', after: 'Acheter' }],
          check: { type: 'regex', pattern: '[A-Z]{4,}', message: 'Too loud' },
        },
      ],
    }),
  );
  await ok(
    api.post('styleguides/terms', {
      terms: [
        {
          styleguideId: 'fr-voice',
          sectionId: 'words',
          developerId: 'courriel',
          preferred: 'courriel',
          replaces: ['email', 'mail'],
          note: 'Québec usage',
        },
      ],
    }),
  );
}

/** Every GET of API v2 a copy must reproduce, with the parameters that show all of a record. */
export function everyGet(projects: readonly string[]): string[] {
  const filter = (value: unknown) => `filter=${encodeURIComponent(JSON.stringify(value))}`;
  const all = { variants: [{ id: 'all' }] };
  return [
    'workspace',
    'users',
    'statuses',
    'variants',
    'variables',
    'componentFolders',
    'projects',
    'bases',
    'styleguides',
    ...projects.map((p) => `projectBlocks?projectId=${p}`),
    'components',
    `components?${filter(all)}`,
    `components?${filter(all)}&richText=html`,
    `components?${filter(all)}&richText=html_paragraphs`,
    'textItems',
    `textItems?${filter(all)}&richText=html`,
    `textItems?${filter(all)}&sort=project_order`,
    `textItems?${filter({ ...all, bases: [{ id: 'core' }] })}&richText=html`,
    'textItems/export?format=json_i18next',
    'textItems/export?format=android&variant=fr',
    'components/export?format=json_icu',
  ];
}

/** Reads of the deprecated v0 (root) and v1 APIs, which send the key as `token <key>`. */
export const legacyGets = [
  '/project-names',
  '/projects/web',
  '/projects/web?variant=fr',
  '/components',
  '/variables',
  '/v1/projects',
  '/v1/components',
];

/** A v0/v1 body with `exported_at` (the time of the read itself, not content) blanked. */
export const withoutReadTime = (body: string) => body.replace(/"exported_at":"[^"]*"/g, '"exported_at":"(read time)"');
