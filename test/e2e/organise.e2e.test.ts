import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/database.js';
import { checkAccessibility, requestsOf, SHOTS, screenshot } from './browser.js';
import { openStage, type Stage } from './people.js';
import { keyed, type RealServer } from './server.js';

/**
 * A writer organising their work in Chromium against a real server: projects, blocks, texts,
 * folders and components created, renamed, moved and deleted from the app (and deletes undone);
 * every place a URL that survives a reload, Back and Forward; filters with counts kept in the
 * URL; bulk edits and bulk delete with undo; the keyboard; the layout at 1024, 1920 and 390
 * pixels; axe-core on each page. Every result is read back through the API.
 */
const PASSWORD = 'e2e organise password';
let server: RealServer;
let context: BrowserContext;
let page: Page;
let stage: Stage;
const suffix = () => (onPostgres() ? '-postgres' : '');

type Rec = {
  id: string;
  text: string;
  status: string;
  tags: string[];
  blockName: string | null;
  projectId: string;
  variantId: string | null;
  pluralForm: string | null;
  assignee: string | null;
};
type Comp = { id: string; name: string; folderId: string | null; variantId: string | null };

const api = () => keyed(server);
/** Polls until the value matches, for as long as a locator waits. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const items = async (projectId: string) =>
  (
    await api()<Rec[]>(
      'GET',
      `textItems?filter=${encodeURIComponent(JSON.stringify({ projects: [{ id: projectId }] }))}`,
    )
  ).filter((r) => r.variantId === null && r.pluralForm === null);
const components = async () => (await api()<Comp[]>('GET', 'components')).filter((c) => c.variantId === null);

const dialog = () => page.getByRole('dialog');
const toolbar = (name: string) => page.getByRole('toolbar', { name, exact: true });
const sidebar = () => page.getByRole('navigation', { name: 'Projects and library' });
const rows = () => page.getByRole('listbox', { name: 'Texts' }).getByRole('option');
const path = () => new URL(page.url()).pathname + new URL(page.url()).search;

/** Fills a dialog's fields by label, submits it and waits until it closed. */
async function submit(fields: Record<string, string>, button: string | RegExp) {
  const d = dialog();
  await d.waitFor();
  for (const [label, value] of Object.entries(fields)) {
    const field = d.getByLabel(label, { exact: true });
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption({ label: value });
    else await field.fill(value);
  }
  await d.getByRole('button', { name: button }).click();
  await d.waitFor({ state: 'detached' });
}

/** The toast of the last write, then its Undo. */
async function undo(message: RegExp) {
  const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: message });
  await toast.waitFor();
  await toast.getByRole('button', { name: 'Undo' }).click();
  await toast.filter({ hasText: /^Undone/ }).waitFor();
}

/** No two of the page's main parts overlap, and none reaches past the window's width. */
async function expectNoOverlap(selectors: string[]) {
  const boxes = await page.evaluate((sels) => {
    const doc = (globalThis as any).document;
    return sels
      .map((s: string) => [s, doc.querySelector(s)?.getBoundingClientRect()] as const)
      .filter(([, r]: readonly [string, any]) => r && r.width > 0 && r.height > 0)
      .map(([s, r]: readonly [string, any]) => ({ s, x: r.x, y: r.y, w: r.width, h: r.height }));
  }, selectors);
  const width = page.viewportSize()?.width ?? 0;
  expect(boxes.length).toBeGreaterThan(1);
  for (const a of boxes) {
    expect(a.x + a.w, `${a.s} fits the width`).toBeLessThanOrEqual(width + 1);
    for (const b of boxes) {
      if (a === b) continue;
      const apart = a.x + a.w <= b.x + 1 || b.x + b.w <= a.x + 1 || a.y + a.h <= b.y + 1 || b.y + b.h <= a.y + 1;
      expect(apart, `${a.s} and ${b.s} overlap`).toBe(true);
    }
  }
}

describe('organising a workspace in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    stage = await openStage();
    server = stage.server;
    await api()('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
    // bypassCSP: only so that axe-core can be injected.
    context = await stage.browser.newContext({
      baseURL: server.base,
      viewport: { width: 1400, height: 900 },
      acceptDownloads: true,
      bypassCSP: true,
    });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !page) return;
    const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
    await page.screenshot({ path: resolve(SHOTS, `organise-failed-${name}${suffix()}.png`) }).catch(() => undefined);
    console.log('FAILED AT', page.url(), (await page.content().catch(() => '')).slice(0, 1500));
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await stage?.close();
  });

  it('a fresh workspace opens the library; "New project" makes a project, its 400 shown under the form', async () => {
    await page.goto(server.passwordLink);
    await page.getByLabel(/New password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await poll(path).toBe('/library');

    await sidebar().getByRole('button', { name: 'New project' }).click();
    await dialog().getByLabel('Name', { exact: true }).fill('Checkout');
    await dialog().getByLabel('Developer ID (optional)').fill('not valid!');
    await dialog().getByRole('button', { name: 'Create project' }).click();
    await poll(() => dialog().getByRole('alert').textContent()).toMatch(/developerId/);
    await checkAccessibility(page, 'organise-01-dialog-error');
    await submit({ 'Developer ID (optional)': 'checkout' }, 'Create project');
    await poll(path).toBe('/projects/checkout');
    expect(await api()<{ id: string; name: string }[]>('GET', 'projects')).toMatchObject([
      { id: 'checkout', name: 'Checkout' },
    ]);
  });

  it('blocks and texts are made from the app; each has its URL', async () => {
    await toolbar('Project').getByRole('button', { name: 'New block' }).click();
    await submit({ Name: 'Header', 'Developer ID (optional)': 'header' }, 'Create block');
    await poll(path).toBe('/projects/checkout/blocks/header');
    await page.getByRole('heading', { name: 'Checkout / Header' }).waitFor();

    await toolbar('Block').getByRole('button', { name: 'New text' }).click();
    await submit({ Text: 'Pay now', 'Developer ID (optional)': 'pay-now' }, 'Create text');
    await poll(path).toBe('/projects/checkout/texts/pay-now');
    await page.getByRole('region', { name: 'Editing pay-now' }).waitFor();

    await sidebar().getByRole('link', { name: 'Checkout' }).click();
    await toolbar('Project').getByRole('button', { name: 'New block' }).click();
    await submit({ Name: 'Footer', 'Developer ID (optional)': 'footer' }, 'Create block');
    await sidebar().getByRole('link', { name: 'Checkout' }).click();
    await toolbar('Project').getByRole('button', { name: 'New text' }).click();
    await submit({ Text: 'Cancel order', 'Developer ID (optional)': 'cancel-order' }, 'Create text');
    await poll(path).toBe('/projects/checkout/texts/cancel-order');

    const records = await items('checkout');
    expect(records.map((r) => [r.id, r.blockName])).toEqual(
      expect.arrayContaining([
        ['pay-now', 'Header'],
        ['cancel-order', null],
      ]),
    );
    expect(await api()<{ id: string }[]>('GET', 'projectBlocks?projectId=checkout')).toEqual([
      { id: 'header', name: 'Header' },
      { id: 'footer', name: 'Footer' },
    ]);
    await checkAccessibility(page, 'organise-02-project');
  });

  it('renames a block and a project, duplicates a text and moves it to another block', async () => {
    await sidebar().getByRole('link', { name: 'Header' }).click();
    await toolbar('Block').getByRole('button', { name: 'Rename' }).click();
    await submit({ Name: 'Top' }, 'Save');
    await page.getByRole('heading', { name: 'Checkout / Top' }).waitFor();

    await sidebar().getByRole('link', { name: 'Checkout' }).click();
    await toolbar('Project').getByRole('button', { name: 'Rename' }).click();
    await submit({ Name: 'Checkout flow' }, 'Save');
    await sidebar().getByRole('link', { name: 'Checkout flow' }).waitFor();

    await rows().filter({ hasText: 'pay-now' }).click();
    await toolbar('Text').getByRole('button', { name: 'Duplicate' }).click();
    await submit({ 'Developer ID of the copy': 'pay-later' }, 'Duplicate');
    await poll(path).toBe('/projects/checkout/texts/pay-later');
    await toolbar('Text').getByRole('button', { name: 'Move' }).click();
    await submit({ To: 'Checkout flow / Footer' }, 'Move');

    const records = await items('checkout');
    expect(records.find((r) => r.id === 'pay-later')).toMatchObject({ text: 'Pay now', blockName: 'Footer' });
    expect(await api()<{ name: string }[]>('GET', 'projectBlocks?projectId=checkout')).toMatchObject([
      { name: 'Top' },
      { name: 'Footer' },
    ]);
    expect((await api()<{ name: string }[]>('GET', 'projects'))[0]?.name).toBe('Checkout flow');
  });

  it('folders nest and are deleted; a component is made in a folder and moved to another', async () => {
    await page.goto('/library');
    await sidebar().getByRole('button', { name: 'New folder' }).click();
    await submit({ Name: 'Buttons', 'Developer ID (optional)': 'buttons' }, 'Create folder');
    await poll(path).toBe('/library/folders/buttons');
    await toolbar('Folder').getByRole('button', { name: 'New folder' }).click();
    await submit({ Name: 'Primary', 'Developer ID (optional)': 'primary' }, 'Create folder');
    await poll(path).toBe('/library/folders/primary');
    expect(await api()<unknown[]>('GET', 'componentFolders')).toMatchObject([
      { id: 'buttons', name: 'Buttons', parentId: null },
      { id: 'primary', name: 'Primary', parentId: 'buttons' },
    ]);

    await toolbar('Folder').getByRole('button', { name: 'New component' }).click();
    await submit({ Name: 'Save', Text: 'Save', 'Developer ID (optional)': 'save' }, 'Create component');
    await poll(path).toBe('/library/components/save');
    await page.getByRole('region', { name: 'Editing save' }).waitFor();
    await checkAccessibility(page, 'organise-04-component');

    await toolbar('Component').getByRole('button', { name: 'Move' }).click();
    await submit({ To: 'Buttons' }, 'Move');
    await poll(async () => (await components()).find((c) => c.id === 'save')?.folderId).toBe('buttons');

    await page.goto('/library/folders/primary');
    await toolbar('Folder').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    await poll(path).toBe('/library/folders/buttons');
    await poll(async () => (await api()<unknown[]>('GET', 'componentFolders')).length).toBe(1);
    await checkAccessibility(page, 'organise-05-library');
  });

  it('URLs keep the place and the open text through reload, Back and Forward', async () => {
    await api()('POST', 'textItems', {
      projectId: 'checkout',
      textItems: [{ developerId: 'help', text: 'Need help?' }],
    });
    await page.goto('/projects/checkout');
    await rows().filter({ hasText: 'pay-now' }).click();
    await poll(path).toBe('/projects/checkout/texts/pay-now');
    await page.reload();
    await page.getByRole('region', { name: 'Editing pay-now' }).waitFor();
    await rows().filter({ hasText: 'Need help?' }).click();
    await poll(path).toBe('/projects/checkout/texts/help');
    await page.goBack();
    await poll(path).toBe('/projects/checkout/texts/pay-now');
    await page.getByRole('region', { name: 'Editing pay-now' }).waitFor();
    await page.goForward();
    await page.getByRole('region', { name: 'Editing help' }).waitFor();

    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'History' }).click();
    await poll(path).toBe('/history');
    await page.goBack();
    await page.getByRole('region', { name: 'Editing help' }).waitFor();

    await page.getByRole('searchbox', { name: 'Search texts' }).fill('Pay');
    await page.getByRole('searchbox', { name: 'Search texts' }).press('Enter');
    await poll(path).toBe('/search?q=Pay');
    await page.reload();
    await page.getByRole('list', { name: 'All search results' }).getByRole('link', { name: 'pay-now' }).click();
    await poll(path).toBe('/projects/checkout/texts/pay-now');
    await checkAccessibility(page, 'organise-06-text-by-url');
  });

  it('filters combine, show their counts and live in the URL', async () => {
    await api()('POST', 'textItems', {
      projectId: 'checkout',
      textItems: [
        { developerId: 'total', text: 'Total', status: 'WIP', tags: ['cart'] },
        {
          developerId: 'items',
          text: '{{count}} item',
          status: 'WIP',
          tags: ['cart'],
          plurals: [
            { form: 'one', text: '{{count}} item' },
            { form: 'other', text: '{{count}} items' },
          ],
        },
        {
          developerId: 'shipping',
          text: 'Shipping',
          status: 'WIP',
          variants: [{ variantId: 'fr', text: 'Livraison' }],
        },
      ],
    });
    await page.goto('/projects/checkout');
    await rows().filter({ hasText: 'Shipping' }).waitFor();
    const filters = page.getByRole('group', { name: 'Status', exact: true });
    await page.getByText('Filters', { exact: true }).click();
    const wip = filters.getByRole('checkbox', { name: /In Progress/ });
    await poll(() => filters.getByText(/In Progress/).textContent()).toContain('(3)');
    await wip.check();
    await poll(path).toBe('/projects/checkout?status=WIP');
    await poll(() => rows().count()).toBe(3);
    await page
      .getByRole('group', { name: 'Tags' })
      .getByRole('checkbox', { name: /cart \(2\)/ })
      .check();
    await poll(path).toBe('/projects/checkout?status=WIP&tags=cart');
    await poll(() => rows().count()).toBe(2);
    await page
      .getByRole('group', { name: 'Has plural forms' })
      .getByRole('radio', { name: /Yes \(1\)/ })
      .check();
    await poll(() => rows().count()).toBe(1);
    await checkAccessibility(page, 'organise-07-filters');

    // The filtered list is a link: a reload (or a colleague) gets the same list.
    await page.goto('/projects/checkout?status=WIP&variant=fr&state=missing');
    await poll(() => rows().count()).toBe(2);
    expect(await rows().allTextContents()).not.toContain(expect.stringContaining('Shipping'));
    await page.goto('/projects/checkout?variables=true');
    await poll(() => rows().allTextContents()).toEqual([expect.stringContaining('{{count}} item')]);
    await page.goto('/projects/checkout?assignee=me');
    await page.getByText('No texts here.').waitFor();
  });

  it('the keyboard moves through the list without opening; Enter opens, Esc closes', async () => {
    await page.goto('/projects/checkout');
    const list = page.getByRole('listbox', { name: 'Texts' });
    await list.focus();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowDown');
    expect(path()).toBe('/projects/checkout');
    const second = await rows().nth(1).getAttribute('id');
    expect(await list.getAttribute('aria-activedescendant')).toBe(second);
    await page.keyboard.press('Enter');
    await poll(path).toMatch(/^\/projects\/checkout\/texts\//);
    await page
      .getByRole('region', { name: /^Editing / })
      .getByRole('button', { name: 'Close editor' })
      .focus();
    await page.keyboard.press('Escape');
    await poll(path).toBe('/projects/checkout');
    await poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('role'))).toBe(
      'listbox',
    );
  });

  it('bulk: click and shift-click select, one request sets the status of all', async () => {
    await page.goto('/projects/checkout');
    await rows().filter({ hasText: 'Total' }).locator('.check').click();
    await rows()
      .filter({ hasText: 'Shipping' })
      .click({ modifiers: ['Shift'] });
    const selected = await rows().evaluateAll(
      (all) => all.filter((r) => r.getAttribute('aria-selected') === 'true').length,
    );
    expect(selected).toBe(3);
    const patches: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().includes('/v2/textItems')) patches.push(r.postData() ?? '');
    });
    await toolbar('Selection').getByRole('button', { name: 'Set status' }).click();
    await submit({ Status: 'Final' }, 'Apply');
    await poll(async () =>
      (await items('checkout'))
        .filter((r) => r.status === 'FINAL')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['items', 'shipping', 'total']);
    expect(patches).toHaveLength(1);
    await checkAccessibility(page, 'organise-08-bulk');
  });

  it('lays out without overlap at 1024 and 1920 pixels, and as a phone at 390', async () => {
    for (const width of [1024, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/projects/checkout/texts/pay-now');
      await page.getByRole('region', { name: 'Editing pay-now' }).waitFor();
      await expectNoOverlap(['.sidebar', '.list', '.editor-pane']);
      await expectNoOverlap(['.brand', '.topbar nav', '.search', '.who']);
      await screenshot(page, `organise-09-width-${width}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/projects/checkout');
    await rows().first().waitFor();
    expect(await page.locator('.editor-pane').isVisible()).toBe(false);
    await checkAccessibility(page, 'organise-10-phone-list');
    await rows().filter({ hasText: 'pay-now' }).click();
    await page.getByRole('region', { name: 'Editing pay-now' }).waitFor();
    expect(await page.getByRole('listbox', { name: 'Texts' }).isVisible()).toBe(false);
    const pane = await page.locator('.editor-pane').boundingBox();
    expect(pane?.width).toBeLessThanOrEqual(390);
    await checkAccessibility(page, 'organise-11-phone-editor');
    await page.getByRole('button', { name: 'Back to the list' }).click();
    await poll(path).toBe('/projects/checkout');
    await rows().first().waitFor();
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('the favicon is served and every page passes axe-core', async () => {
    const icon = await page.request.get('/favicon.svg');
    expect(icon.status()).toBe(200);
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    const requests = requestsOf(page);
    for (const [url, name] of [
      ['/projects/checkout/blocks/footer', 'organise-12-block'],
      ['/library/folders/buttons', 'organise-13-folder'],
      ['/history', 'organise-14-history'],
      ['/export', 'organise-15-export'],
      ['/import', 'organise-16-import'],
      ['/settings', 'organise-17-settings'],
      ['/search?q=Total', 'organise-18-search'],
    ] as const) {
      await page.goto(url);
      await page.getByRole('navigation', { name: 'Pages' }).waitFor();
      await requests.quiet();
      await checkAccessibility(page, name);
    }
    requests.stop();
  });

  // Below: what needs the organising API (new developer IDs, moves across projects, tags added or
  // removed, folder and component renames) and the undo of a write (its revision).
  it('changes a text’s developer ID and moves it to another project', async () => {
    await api()('POST', 'projects', { projects: [{ name: 'Account', developerId: 'account' }] });
    await page.goto('/projects/checkout/texts/pay-later');
    await toolbar('Text').getByRole('button', { name: 'Rename' }).click();
    await submit({ 'Developer ID': 'pay-in-30-days' }, 'Save');
    await poll(path).toBe('/projects/checkout/texts/pay-in-30-days');
    await toolbar('Text').getByRole('button', { name: 'Move' }).click();
    await submit({ To: 'Account (no block)' }, 'Move');
    await poll(path).toBe('/projects/account/texts/pay-in-30-days');
    expect((await items('account')).map((r) => r.id)).toEqual(['pay-in-30-days']);
  });

  it('renames a component, renames a folder and moves it to the library root', async () => {
    await api()('POST', 'componentFolders', {
      folders: [{ name: 'Primary', developerId: 'primary', parentId: 'buttons' }],
    });
    await page.goto('/library/components/save');
    await toolbar('Component').getByRole('button', { name: 'Rename' }).click();
    await submit({ Name: 'Save button' }, 'Save');
    await poll(async () => (await components()).find((c) => c.id === 'save')?.name).toBe('Save button');
    await page.goto('/library/folders/primary');
    await toolbar('Folder').getByRole('button', { name: 'Rename' }).click();
    await submit({ Name: 'Main' }, 'Save');
    await toolbar('Folder').getByRole('button', { name: 'Move' }).click();
    await submit({ Into: 'Library root' }, 'Move');
    await poll(() => api()<unknown[]>('GET', 'componentFolders')).toContainEqual({
      id: 'primary',
      name: 'Main',
      parentId: null,
    });
    // A folder cannot go into itself: it is not offered.
    await toolbar('Folder').getByRole('button', { name: 'Move' }).click();
    expect(await dialog().getByRole('option', { name: 'Main' }).count()).toBe(0);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  });

  it('bulk: tags added and removed, the selection exported', async () => {
    await page.goto('/projects/checkout');
    await rows()
      .filter({ hasText: 'pay-now' })
      .click({ modifiers: ['Control'] });
    await rows()
      .filter({ hasText: 'Total' })
      .click({ modifiers: ['Control'] });
    await toolbar('Selection').getByRole('button', { name: 'Add tags' }).click();
    await submit({ 'Tags (comma separated)': 'release-2, urgent' }, 'Apply');
    await poll(async () => (await items('checkout')).find((r) => r.id === 'total')?.tags).toEqual([
      'cart',
      'release-2',
      'urgent',
    ]);
    await toolbar('Selection').getByRole('button', { name: 'Remove tags' }).click();
    await submit({ 'Tags (comma separated)': 'urgent' }, 'Apply');
    await poll(async () => (await items('checkout')).find((r) => r.id === 'pay-now')?.tags).toEqual(['release-2']);

    await toolbar('Selection').getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog().getByRole('button', { name: 'Download' }).click(),
    ]);
    const file = JSON.parse(readFileSync(String(await download.path()), 'utf8'));
    expect(Object.keys(file).sort()).toEqual(['pay-now', 'total']);
  });

  it('deletes a text, a block and a project, each undone from its message', async () => {
    await page.goto('/projects/checkout/texts/cancel-order');
    await toolbar('Text').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    await poll(path).toBe('/projects/checkout');
    await poll(async () => (await items('checkout')).some((r) => r.id === 'cancel-order')).toBe(false);
    await checkAccessibility(page, 'organise-03-deleted-toast');
    await undo(/Deleted cancel-order/);
    await rows().filter({ hasText: 'Cancel order' }).waitFor();
    expect((await items('checkout')).some((r) => r.id === 'cancel-order')).toBe(true);

    await sidebar().getByRole('link', { name: 'Top' }).click();
    await toolbar('Block').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    await poll(async () => (await api()<unknown[]>('GET', 'projectBlocks?projectId=checkout')).length).toBe(1);
    await undo(/Deleted block Top/);
    await poll(async () => (await api()<unknown[]>('GET', 'projectBlocks?projectId=checkout')).length).toBe(2);
    expect((await items('checkout')).find((r) => r.id === 'pay-now')?.blockName).toBe('Top');

    await sidebar().getByRole('link', { name: 'Account' }).click();
    await toolbar('Project').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    await poll(async () => (await api()<unknown[]>('GET', 'projects')).length).toBe(1);
    await undo(/Deleted project Account/);
    await poll(async () => (await api()<unknown[]>('GET', 'projects')).length).toBe(2);
    expect((await items('account')).map((r) => r.id)).toEqual(['pay-in-30-days']);
  });

  it('bulk: select all and delete in one request, then undo', async () => {
    await page.goto('/projects/checkout');
    await rows().first().waitFor();
    await page.getByRole('button', { name: 'Select all' }).click();
    const all = await rows().count();
    await toolbar('Selection').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    await poll(async () => (await items('checkout')).length).toBe(0);
    await undo(new RegExp(`Deleted ${all} texts`));
    await poll(async () => (await items('checkout')).length).toBe(all);
    await poll(() => rows().count()).toBe(all);
  });
});
