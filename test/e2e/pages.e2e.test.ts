import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility, ROOT } from './browser.js';
import { openStage, type Stage } from './people.js';
import { keyed, type RealServer } from './server.js';

/**
 * The history, export and import pages in Chromium against a real server: a word diff and one
 * entry for a bulk write, restoring an old version and a deleted text, an export with rich text
 * and every variant as a zip read back file by file, an import preview with the text now and
 * after, one key left out and new texts into a chosen block. axe-core runs on every state shown.
 */
const { unzipSync } = createRequire(resolve(ROOT, 'web/package.json'))('fflate') as {
  unzipSync: (data: Uint8Array) => Record<string, Uint8Array>;
};

let server: RealServer;
let page: Page;
let stage: Stage;
/** Restores are writes: on a loaded machine they take more than the poll's default second. */
const WAIT = { timeout: 15_000 };
const BULK = ['b1', 'b2', 'b3', 'b4', 'b5'];

const api = <T = any>(method: string, path: string, body?: unknown) => keyed(server)<T>(method, path, body);
const textOf = async (id: string) => {
  const records = await api<{ id: string; text: string; blockName?: string | null }[]>('GET', 'textItems');
  return records.find((r) => r.id === id);
};

describe('history, export and import pages in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    stage = await openStage();
    server = stage.server;
    await api('POST', 'variants', {
      variants: [
        { name: 'French', developerId: 'fr', localeCode: 'fr' },
        { name: 'German', developerId: 'de', localeCode: 'de' },
      ],
    });
    await api('POST', 'projects', { projects: [{ name: 'Shop', developerId: 'shop' }] });
    await api('POST', 'projectBlocks', {
      projectId: 'shop',
      blocks: [
        { name: 'Header', developerId: 'header' },
        { name: 'Body', developerId: 'body' },
      ],
    });
    await api('POST', 'textItems', {
      projectId: 'shop',
      richText: 'html',
      textItems: [
        { developerId: 'greeting', text: 'Hello there friend', variants: [{ variantId: 'fr', text: 'Bonjour ami' }] },
        {
          developerId: 'promo',
          text: '<strong>Big</strong> sale',
          variants: [{ variantId: 'de', text: 'Großer Verkauf' }],
        },
        { developerId: 'obsolete', text: 'Old banner' },
        ...BULK.map((id) => ({ developerId: id, text: `Bulk ${id}` })),
      ],
    });
    await api('PATCH', 'textItems', { updates: [{ developerId: 'greeting', text: 'Hello there, dear friend' }] });
    await api('PATCH', 'textItems', { updates: BULK.map((developerId) => ({ developerId, status: 'FINAL' })) });
    await api('DELETE', 'textItems', { developerIds: ['obsolete'] });

    // bypassCSP: only so that axe-core can be injected; the app itself runs under its policy.
    const context = await stage.browser.newContext({
      baseURL: server.base,
      viewport: { width: 1400, height: 900 },
      acceptDownloads: true,
      bypassCSP: true,
    });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.goto(server.passwordLink);
    await page.getByLabel(/New password/).fill('e2e pages password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('option', { name: /Hello there/ }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await stage?.close();
  });

  /** A page of the app from its navigation, whether it offers links or buttons. */
  async function openPage(name: string): Promise<void> {
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await nav
      .getByRole('link', { name, exact: true })
      .or(nav.getByRole('button', { name, exact: true }))
      .first()
      .click();
  }

  const entries = () => page.getByRole('region', { name: 'Recent changes' }).locator('.history-entry');

  async function filterHistory(fields: { id?: string; kind?: string }): Promise<void> {
    const form = page.getByRole('form', { name: 'Filter the history' });
    await form.getByLabel('Kind').selectOption(fields.kind ?? '');
    await form.getByLabel('Developer ID').fill(fields.id ?? '');
    await form.getByRole('button', { name: 'Apply filters' }).click();
  }

  it('shows a text change as words added and removed, and a bulk edit as one entry', async () => {
    await openPage('History');
    const greeting = entries().filter({ hasText: /changed text item\s*greeting/ });
    await greeting.first().waitFor();
    expect(await greeting.locator('ins').allTextContents()).toEqual([expect.stringContaining('dear')]);
    expect((await greeting.locator('dd').first().textContent()) ?? '').toContain('Hello there');
    // Never markup or JSON on the page.
    expect(await entries().allTextContents()).not.toContainEqual(expect.stringMatching(/<strong>|\{"/));

    const bulk = entries().filter({ hasText: 'changed the status of 5 text items' });
    expect(await bulk.count()).toBe(1);
    await bulk.locator('summary').click();
    for (const id of BULK) await bulk.getByRole('link', { name: id, exact: true }).waitFor();
    expect(await bulk.textContent()).toMatch(/Status\s*Work in progress → Final|Status.*→.*Final/);
    await checkAccessibility(page, 'pages-01-history');

    // The whole write undone at once: every text back to the status it had before.
    const statusOf = async (id: string) =>
      (await api<{ id: string; status: string }[]>('GET', 'textItems')).find((r) => r.id === id)?.status;
    expect(await statusOf('b3')).toBe('FINAL');
    await bulk.getByRole('button', { name: 'Undo these changes' }).click();
    const status = page.getByRole('region', { name: 'Recent changes' }).getByRole('status');
    await expect
      .poll(async () => `${await status.textContent()}${await bulk.getByRole('alert').allTextContents()}`, WAIT)
      .toMatch(/^Undone: admin@localhost changed the status of 5 text items \(.*\)\.$/);
    expect(await statusOf('b3')).not.toBe('FINAL');
    await expect.poll(() => entries().filter({ hasText: 'changed the status of 5 text items' }).count()).toBe(2);
  });

  it('restores an old version of a text and a deleted text', async () => {
    await filterHistory({ kind: 'textItem', id: 'greeting' });
    await expect.poll(() => entries().count()).toBe(2);
    const created = entries().filter({ hasText: 'created text item' });
    await created.getByRole('button', { name: 'Restore this version' }).click();
    const status = page.getByRole('region', { name: 'Recent changes' }).getByRole('status');
    await expect.poll(() => status.textContent(), WAIT).toMatch(/^Restored text item greeting to its version of /);
    expect((await textOf('greeting'))?.text).toBe('Hello there friend');
    // The restore is itself a change, shown at the top once the page re-reads.
    await expect.poll(() => entries().count()).toBe(3);
    await checkAccessibility(page, 'pages-02-history-restored');

    await filterHistory({ kind: 'textItem', id: 'obsolete' });
    const deleted = entries().filter({ hasText: 'deleted text item' });
    await deleted.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect.poll(() => status.textContent(), WAIT).toBe('Restored the deleted text item obsolete.');
    expect((await textOf('obsolete'))?.text).toBe('Old banner');

    // Restoring it again: its developer ID is taken now, and the answer shows beside the button.
    await deleted.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect.poll(() => deleted.getByRole('alert').textContent(), WAIT).toMatch(/obsolete/);
    await checkAccessibility(page, 'pages-03-history-restore-error');
  });

  async function downloadFrom(button: Locator): Promise<Download> {
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    return download;
  }

  it('exports rich text under the file name the command-line puller uses, and every variant as one zip', async () => {
    await openPage('Export');
    const form = page.getByRole('main');
    await form.getByLabel('Project (text items)').selectOption('shop');
    await form.getByLabel(/Rich text/).check();
    await form.getByText('File: shop___base.json').waitFor();
    await checkAccessibility(page, 'pages-04-export');
    const base = await downloadFrom(form.getByRole('button', { name: 'Download' }));
    expect(base.suggestedFilename()).toBe('shop___base.json');
    const file = JSON.parse(readFileSync(String(await base.path()), 'utf8'));
    expect(file).toMatchObject({ promo: '<strong>Big</strong> sale', greeting: (await textOf('greeting'))?.text });

    await form.getByLabel('Variant').selectOption({ label: 'Every variant and the base text (one zip file)' });
    await form.getByText(/3 files in one zip/).waitFor();
    const zip = await downloadFrom(form.getByRole('button', { name: 'Download' }));
    expect(zip.suggestedFilename()).toBe('shop___json_i18next.zip');
    const files = unzipSync(new Uint8Array(readFileSync(String(await zip.path()))));
    expect(Object.keys(files).sort()).toEqual(['shop___base.json', 'shop___de.json', 'shop___fr.json']);
    const read = (name: string) => JSON.parse(new TextDecoder().decode(files[name]));
    expect(read('shop___base.json')).toMatchObject({ promo: '<strong>Big</strong> sale', b1: 'Bulk b1' });
    expect(read('shop___fr.json')).toMatchObject({ greeting: 'Bonjour ami' });
    expect(read('shop___fr.json').promo).toBeUndefined();
    expect(read('shop___de.json')).toMatchObject({ promo: 'Großer Verkauf' });
  });

  it('previews an import with the text now and after, leaves one key out, puts new texts in a block', async () => {
    await openPage('Import');
    const now = (await textOf('greeting'))?.text;
    const main = page.getByRole('main');
    const content = JSON.stringify({ greeting: 'Hi all', b1: 'Bulk b1', fresh: 'Brand new', unwanted: 'Not this' });
    await main
      .getByLabel('File')
      .setInputFiles({ name: 'en.json', mimeType: 'application/json', buffer: Buffer.from(content) });
    await main.getByLabel('Into').selectOption('shop');
    await main.getByLabel('Place new texts in').selectOption({ label: 'Block: Body' });
    await main.getByRole('button', { name: 'Preview' }).click();
    const table = page.getByRole('region', { name: 'What happens to each key' });
    const row = (key: string) => table.getByRole('row').filter({ has: page.getByText(key, { exact: true }) });
    await row('greeting').waitFor();
    expect(await row('greeting').getByRole('cell').allTextContents()).toEqual([
      '',
      'greeting',
      'Update',
      now,
      'Hi all',
    ]);
    expect(await row('b1').getByRole('cell').nth(2).textContent()).toBe('Unchanged');
    expect(await row('fresh').getByRole('cell').allTextContents()).toEqual(['', 'fresh', 'New', 'none', 'Brand new']);
    await table.getByRole('checkbox', { name: 'Import unwanted' }).uncheck();
    expect(await row('unwanted').getByRole('cell').nth(2).textContent()).toBe('Left as it is');
    await checkAccessibility(page, 'pages-05-import-preview');

    await main.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status', { name: 'Import result' }).getByText('Imported').waitFor();
    await checkAccessibility(page, 'pages-06-import-done');
    expect((await textOf('greeting'))?.text).toBe('Hi all');
    expect(await textOf('fresh')).toMatchObject({ text: 'Brand new', blockName: 'Body' });
    expect(await textOf('unwanted')).toBeUndefined();
  });
});
