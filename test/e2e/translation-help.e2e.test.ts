import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility, launchChromium, requireBrowserAndApp, scratchDatabase } from './browser.js';
import { keyed, type RealServer, startServer } from './server.js';

/**
 * Translation help beside a variant's pane in headless Chromium against a real server: a
 * translation memory match used in one click (an unsaved edit until saved), and the glossary of
 * the variant's locale.
 */
const PASSWORD = 'e2e translation help password';

let server: RealServer;
let dropScratch = async () => {};
let browser: Browser;
let api: ReturnType<typeof keyed>;

describe('translation help in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    requireBrowserAndApp();
    const scratch = await scratchDatabase();
    dropScratch = scratch.drop;
    server = await startServer(scratch.url);
    api = keyed(server);
    await api('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr-FR' }] });
    await api('POST', 'projects', { projects: [{ name: 'Shop', developerId: 'shop' }] });
    await api('POST', 'textItems', {
      projectId: 'shop',
      textItems: [
        {
          developerId: 'a-save',
          text: 'Save changes',
          variants: [{ variantId: 'fr', text: 'Enregistrer les modifications' }],
        },
        { developerId: 'b-save-all', text: 'Save all changes' },
      ],
    });
    await api('POST', 'styleguides', { styleguides: [{ name: 'French', developerId: 'french', variantId: 'fr' }] });
    await api('POST', 'styleguides/terms', {
      terms: [{ styleguideId: 'french', sectionId: 'wordlist', preferred: 'courriel', replaces: ['e-mail'] }],
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dropScratch();
  });

  async function signedIn(): Promise<Page> {
    const context = await browser.newContext({
      baseURL: server.base,
      viewport: { width: 1600, height: 1000 },
      bypassCSP: true,
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(server.passwordLink);
    await page.getByLabel(/New password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('listbox', { name: 'Texts' }).waitFor();
    return page;
  }

  it('uses a memory match as an unsaved edit, saved with the pane, and shows the glossary', async () => {
    const page = await signedIn();
    await page.getByRole('option', { name: /Save all changes/ }).click();
    await page.getByRole('textbox', { name: 'Base text text' }).waitFor();
    await page.getByRole('checkbox', { name: /French/ }).check();
    const french = page.getByRole('form', { name: 'French' });
    const memory = french.getByRole('region', { name: 'Translation memory: French' });
    // "Save all changes" against "Save changes": 13 of 17 trigrams, 76%.
    const use = memory.getByRole('button', { name: 'Use 76% match: Enregistrer les modifications' });
    await use.waitFor();
    expect(await memory.textContent()).toContain('“Save changes” · shop / a-save');
    await expect
      .poll(() => french.getByRole('region', { name: 'Glossary: French' }).textContent())
      .toContain('courriel');
    await checkAccessibility(page, 'translation-help-01-matches');

    await use.click();
    const box = page.getByRole('textbox', { name: 'French text', exact: true });
    await expect.poll(() => box.textContent()).toBe('Enregistrer les modifications');
    // Not saved yet: the server still has no French text.
    const frenchOf = async () => {
      const records = await api<{ id: string; variantId: string | null; text: string }[]>(
        'GET',
        `textItems?filter=${encodeURIComponent(JSON.stringify({ variants: [{ id: 'fr' }] }))}`,
      );
      return records.find((r) => r.id === 'b-save-all' && r.variantId === 'fr')?.text ?? null;
    };
    expect(await frenchOf()).toBeNull();
    await french.getByRole('button', { name: 'Save french' }).click();
    await french.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await frenchOf()).toBe('Enregistrer les modifications');
  });
});
