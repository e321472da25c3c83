import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../modules/machine-translation/fake-providers.js';
import { checkAccessibility, launchChromium, requireBrowserAndApp, scratchDatabase } from './browser.js';
import { keyed, type RealServer, startServer } from './server.js';

/**
 * Machine translation in Chromium against a real server and a local OpenAI-compatible server (the
 * test's fake, answering `/v1/chat/completions` as such a server does): an editor translates the
 * open text into French as its In Progress value, then translates what French still lacks in the
 * project and watches the job's progress until it is done. Results are read back through the API;
 * axe-core and a screenshot of each state (`test-results/machine-translation-*`).
 */
let server: RealServer;
let fake: FakeProvider;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let drop: () => Promise<void> = async () => {};

const frenchOf = async (developerId: string) => {
  const items = await keyed(server)<{ id: string; text: string; status: string; variantId: string | null }[]>(
    'GET',
    `textItems?filter=${encodeURIComponent(JSON.stringify({ variants: [{ id: 'fr' }] }))}`,
  );
  return items.find((t) => t.id === developerId && t.variantId === 'fr');
};

describe('machine translation in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    requireBrowserAndApp();
    fake = await startFakeProvider();
    const database = await scratchDatabase();
    drop = database.drop;
    server = await startServer(database.url, { MT_ALLOW_PRIVATE_NETWORKS: 'true', MT_POLL_MS: '50' });
    browser = await launchChromium();
    const api = keyed(server);
    await api('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
    await api('POST', 'projects', { projects: [{ name: 'Shop', developerId: 'shop' }] });
    await api('POST', 'textItems', {
      projectId: 'shop',
      textItems: [
        { developerId: 'checkout', text: 'Pay later with {{method}}' },
        { developerId: 'welcome', text: 'Welcome back' },
        { developerId: 'cart', text: 'Your cart is empty' },
      ],
    });
    await api('POST', 'machineTranslation/providers', {
      name: 'Local model',
      developerId: 'local',
      kind: 'openai',
      url: fake.url,
      model: 'qwen2.5:7b',
      privateNetwork: true,
      concurrency: 1,
    });
    const { passwordLink } = await api<{ passwordLink: string }>('POST', 'users', {
      email: 'eda@example.com',
      name: 'Eda Editor',
      role: 'editor',
    });
    const token = new URL(passwordLink).hash.slice('#token='.length);
    const set = await fetch(`${server.base}/v2/session/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'editor password' }),
    });
    expect(set.ok).toBe(true);
    context = await browser.newContext({
      baseURL: server.base,
      viewport: { width: 1400, height: 900 },
      bypassCSP: true,
    });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Email').fill('eda@example.com');
    await page.getByLabel('Password').fill('editor password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('listbox', { name: 'Texts' }).waitFor();
  }, 120_000);

  it('an admin adds a provider in the settings; its key is not shown again', async () => {
    const admin = await browser.newContext({
      baseURL: server.base,
      viewport: { width: 1400, height: 900 },
      bypassCSP: true,
    });
    admin.setDefaultTimeout(15_000);
    const settings = await admin.newPage();
    await settings.goto(server.passwordLink);
    await settings.getByLabel(/New password/).fill('admin password 1');
    await settings.getByRole('button', { name: 'Set password and sign in' }).click();
    await settings.getByRole('listbox', { name: 'Texts' }).waitFor();
    await settings.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
    const section = settings.getByRole('region', { name: 'Machine translation' });
    const form = section.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Name').fill('Our LibreTranslate');
    await form.getByLabel('Kind').selectOption('libretranslate');
    await form.getByLabel('URL').fill(fake.url);
    await form.getByLabel(/API key/).fill('libre-secret-9876');
    await form.getByLabel(/On our own network/).check();
    await form.getByRole('button', { name: 'Add provider' }).click();
    await section.getByText('key …9876').waitFor();
    expect(await section.textContent()).not.toContain('libre-secret');
    const providers = await keyed(server)<{ id: string; apiKey: { lastFour: string } }[]>(
      'GET',
      'machineTranslation/providers',
    );
    expect(providers.map((p) => [p.id, p.apiKey.lastFour])).toEqual([
      ['local', null],
      ['our-libretranslate', '9876'],
    ]);
    await checkAccessibility(settings, 'machine-translation-settings');
    await admin.close();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await drop();
    await fake?.close();
  });

  it('translates the open text into French as its In Progress text', async () => {
    await page.getByRole('option', { name: /Pay later/ }).click();
    await page.getByRole('checkbox', { name: /French/ }).check();
    const panel = page.getByRole('region', { name: 'Machine translation' });
    await panel.getByLabel('Result as').selectOption('wip');
    await panel.getByRole('button', { name: 'Translate into French' }).click();
    await panel.getByRole('status').filter({ hasText: "Saved as French's text, In Progress" }).waitFor();
    await panel.getByText('[fr] PAY LATER WITH {{method}}').waitFor();
    expect(await frenchOf('checkout')).toMatchObject({ text: '[fr] PAY LATER WITH {{method}}', status: 'WIP' });
    // The model was asked for French with the placeholder protected.
    const asked = fake.requests.at(-1);
    expect(asked?.path).toBe('/v1/chat/completions');
    expect(asked?.body.messages.at(-1).content).toBe('Pay later with <x id="1"></x>');
    await checkAccessibility(page, 'machine-translation-one');
  });

  it('translates what French lacks in the project, with its progress shown', async () => {
    // Slow enough answers that the job is seen under way.
    fake.always({ kind: 'delay', ms: 1500 });
    await page.getByRole('button', { name: 'Translate missing…' }).click();
    const form = page.getByRole('form', { name: 'Translate missing' });
    await form.getByLabel('Into').selectOption('fr');
    await form.getByLabel('As').selectOption('wip');
    await form.getByRole('button', { name: 'Start' }).click();
    const status = page.getByRole('status').filter({ hasText: /French: \d of 2 translated/ });
    await status.waitFor();
    expect(await status.textContent()).not.toContain('(done)');
    await page.getByRole('progressbar', { name: 'Translation job progress' }).waitFor();
    await checkAccessibility(page, 'machine-translation-running');
    await page.getByRole('status').filter({ hasText: 'French: 2 of 2 translated (done)' }).waitFor({ timeout: 30_000 });
    fake.always(null);
    expect(await frenchOf('welcome')).toMatchObject({ text: '[fr] WELCOME BACK', status: 'WIP' });
    expect(await frenchOf('cart')).toMatchObject({ text: '[fr] YOUR CART IS EMPTY', status: 'WIP' });
    // The text translated before was not asked again.
    expect(fake.requests.filter((r) => r.body.messages?.at(-1).content.startsWith('Pay later'))).toHaveLength(1);
    const progress = await keyed(server)<{ variantId: string; missing: number }[]>(
      'GET',
      'translationProgress?projectId=shop',
    );
    expect(progress.find((p) => p.variantId === 'fr')?.missing).toBe(0);
    await checkAccessibility(page, 'machine-translation-done');
  });
});
