import { expect } from 'vitest';
import type { Workspace } from '../helpers/app.js';

/**
 * The workspace the real clients pull, seeded through /v2. Everything the tests assert about
 * pulled files is computed from these tables (see expected.ts).
 */

export type Form = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
export type Forms = Partial<Record<Form, string>>;

export interface VariantValue {
  text: string;
  status: string;
  plurals?: Forms;
}

export interface SeededText {
  id: string;
  /** Plain text with `{{variable}}` placeholders. */
  text: string;
  /** The markup sent with `richText: "html"`, when the text is rich. */
  html?: string;
  status: string;
  variables?: string[];
  plurals?: Forms;
  notes?: string;
  tags?: string[];
  variants?: Record<string, VariantValue>;
  /** Components: the folder's developer ID; absent at the library root. */
  folder?: string;
}

/** In creation order, which is the order positional formats number them in. */
export const VARIABLES = [
  { name: 'name', type: 'string', data: { example: 'Ann', fallback: 'friend' } },
  { name: 'count', type: 'number', data: { example: 3 } },
  { name: 'link', type: 'hyperlink', data: { text: 'our guide', url: 'https://example.com/guide' } },
  { name: 'plan', type: 'list', data: ['Free', 'Pro'] },
  { name: 'size', type: 'map', data: { s: 'Small', m: 'Medium' } },
] as const;

export const VARIANTS = [
  { developerId: 'french', name: 'French', localeCode: 'fr', description: 'Formal French' },
  { developerId: 'russian', name: 'Russian', localeCode: 'ru' },
] as const;
export const BASE_LOCALE = 'en';

export const FOLDERS = [
  { developerId: 'onboarding', name: 'Onboarding' },
  { developerId: 'tips', name: 'Tips', parentId: 'onboarding' },
] as const;

export const PROJECT = { developerId: 'web', name: 'Web App' } as const;
/** A project whose developer mode is off: the old API must refuse it. */
export const HIDDEN_PROJECT = { developerId: 'admin', name: 'Admin Console' } as const;
/** The text item published to the library, so the project holds one library instance. */
export const INSTANCE = { id: 'saved_item', text: 'Saved for later', status: 'FINAL' } as const;

const CART_RU = {
  one: '{{count}} товар для {{name}}',
  few: '{{count}} товара для {{name}}',
  many: '{{count}} товаров для {{name}}',
  other: '{{count}} товара для {{name}}',
};

export const COMPONENTS: SeededText[] = [
  {
    id: 'cart',
    text: '{{count}} item for {{name}}',
    status: 'FINAL',
    variables: ['count', 'name'],
    plurals: { one: '{{count}} item for {{name}}', other: '{{count}} items for {{name}}' },
    variants: {
      russian: { text: CART_RU.one, status: 'FINAL', plurals: CART_RU },
      french: {
        text: '{{count}} article',
        status: 'WIP',
        plurals: { one: '{{count}} article', other: '{{count}} articles' },
      },
    },
  },
  // Its base is a draft, its French value final: only the French pull has it.
  {
    id: 'draft_banner',
    text: 'New look coming soon',
    status: 'WIP',
    variants: { french: { text: 'Bientôt', status: 'FINAL' } },
  },
  {
    id: 'welcome_title',
    folder: 'onboarding',
    text: 'Welcome, {{name}}!',
    status: 'FINAL',
    variables: ['name'],
    variants: {
      french: { text: 'Bienvenue, {{name}} !', status: 'FINAL' },
      russian: { text: 'Добро пожаловать, {{name}}!', status: 'FINAL' },
    },
  },
  {
    id: 'upgrade_cta',
    folder: 'onboarding',
    text: 'Upgrade to {{plan}}',
    html: '<strong>Upgrade</strong> to {{plan}}',
    status: 'FINAL',
    variables: ['plan'],
    notes: 'Banner button',
    tags: ['billing'],
  },
  {
    id: 'quote_note',
    folder: 'onboarding',
    text: `It's "quoted" & 100% {{name}}`,
    status: 'FINAL',
    variables: ['name'],
  },
  {
    id: 'tip_link',
    folder: 'tips',
    text: 'Read {{link}} about {{size}}',
    status: 'FINAL',
    variables: ['link', 'size'],
    variants: { french: { text: 'Lisez {{link}} sur {{size}}', status: 'FINAL' } },
  },
  // A second plural component in another folder: clients that merge per-folder files must cope.
  {
    id: 'tips_count',
    folder: 'tips',
    text: '{{count}} tip',
    status: 'FINAL',
    variables: ['count'],
    plurals: { one: '{{count}} tip', other: '{{count}} tips' },
    variants: {
      french: {
        text: '{{count}} astuce',
        status: 'FINAL',
        plurals: { one: '{{count}} astuce', other: '{{count}} astuces' },
      },
    },
  },
];

export const TEXT_ITEMS: SeededText[] = [
  {
    id: 'checkout_title',
    text: 'Checkout',
    status: 'FINAL',
    notes: 'Page title',
    tags: ['checkout'],
    variants: {
      french: { text: 'Paiement', status: 'FINAL' },
      russian: { text: 'Оформление заказа', status: 'FINAL' },
    },
  },
  {
    id: 'items_in_cart',
    text: '{{count}} item in your cart',
    status: 'FINAL',
    variables: ['count'],
    plurals: { one: '{{count}} item in your cart', other: '{{count}} items in your cart' },
    variants: {
      french: {
        text: '{{count}} article',
        status: 'FINAL',
        plurals: { one: '{{count}} article', other: '{{count}} articles' },
      },
      russian: {
        text: '{{count}} товар',
        status: 'FINAL',
        plurals: {
          one: '{{count}} товар',
          few: '{{count}} товара',
          many: '{{count}} товаров',
          other: '{{count}} товара',
        },
      },
    },
  },
  {
    id: 'promo_rich',
    text: 'Save {{count}}% today',
    html: '<em>Save</em> {{count}}% today',
    status: 'FINAL',
    variables: ['count'],
  },
  { id: 'legal_draft', text: 'Terms (draft)', status: 'WIP' },
];

async function post(ws: Workspace, path: string, body: object): Promise<void> {
  const res = await ws.api.post(path, body);
  expect(res.status, `POST /v2/${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
}

function content(t: SeededText) {
  const forms = (plurals?: Forms) =>
    plurals ? { plurals: Object.entries(plurals).map(([form, text]) => ({ form, text })) } : {};
  return {
    developerId: t.id,
    text: t.html ?? t.text,
    status: t.status,
    ...(t.variables ? { variables: t.variables } : {}),
    ...(t.notes ? { notes: t.notes } : {}),
    ...(t.tags ? { tags: t.tags } : {}),
    ...forms(t.plurals),
    ...(t.variants
      ? {
          variants: Object.entries(t.variants).map(([variantId, v]) => ({
            variantId,
            text: v.text,
            status: v.status,
            ...forms(v.plurals),
          })),
        }
      : {}),
  };
}

/** Creates everything above in a fresh workspace, through the public API only. */
export async function seedWorkspace(ws: Workspace): Promise<void> {
  await post(ws, 'variables', { variables: VARIABLES });
  await post(ws, 'variants', { variants: VARIANTS });
  await post(ws, 'componentFolders', { folders: FOLDERS });
  for (const rich of [false, true]) {
    const components = COMPONENTS.filter((c) => Boolean(c.html) === rich).map((c) => ({
      ...content(c),
      name: c.id,
      folderId: c.folder ?? null,
    }));
    await post(ws, 'components', { components, ...(rich ? { richText: 'html' } : {}) });
  }
  await post(ws, 'projects', {
    projects: [
      { ...PROJECT, developerMode: true },
      { ...HIDDEN_PROJECT, developerMode: false },
    ],
  });
  for (const rich of [false, true]) {
    const textItems = TEXT_ITEMS.filter((t) => Boolean(t.html) === rich).map(content);
    await post(ws, 'textItems', { projectId: PROJECT.developerId, textItems, ...(rich ? { richText: 'html' } : {}) });
  }
  await post(ws, 'textItems', {
    projectId: PROJECT.developerId,
    textItems: [{ developerId: INSTANCE.id, text: INSTANCE.text, status: INSTANCE.status }],
  });
  const published = await ws.api.post('components/publish', { textItemId: INSTANCE.id });
  expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
  await post(ws, 'textItems', {
    projectId: HIDDEN_PROJECT.developerId,
    textItems: [{ developerId: 'admin_title', text: 'Admin', status: 'FINAL' }],
  });
}
