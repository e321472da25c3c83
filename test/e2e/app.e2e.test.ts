import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility, launchChromium, requireBrowserAndApp, scratchDatabase, screenshot } from './browser.js';
import { keyed, type RealServer, startServer } from './server.js';

/**
 * The writers' web app in headless Chromium against a real server: the flows a writer goes
 * through, a conflict between two people, a viewer, a forged write, and axe-core on each page.
 * Screenshots of each page go to test-results/ (not committed).
 */
const PASSWORD = 'e2e admin password';

let server: RealServer;
let dropScratch = async () => {};
let browser: Browser;
const contexts: BrowserContext[] = [];

describe('the web app in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    requireBrowserAndApp();
    // Screenshots of the SQLite run; the PostgreSQL run's go beside them.
    const scratch = await scratchDatabase();
    dropScratch = scratch.drop;
    server = await startServer(scratch.url);
    const api = keyed(server);
    await api('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
    await api('POST', 'variables', { variables: [{ name: 'name', type: 'string', data: { example: 'Ada' } }] });
    await api('POST', 'projects', { projects: [{ name: 'Shop', developerId: 'shop' }] });
    await api('POST', 'textItems', {
      projectId: 'shop',
      textItems: [
        { developerId: 'greeting', text: 'Hello', characterLimit: 30 },
        { developerId: 'farewell', text: 'Goodbye', variants: [{ variantId: 'fr', text: 'Au revoir' }] },
        { developerId: 'cart', text: 'Your cart', variants: [{ variantId: 'fr', text: 'Votre panier' }] },
      ],
    });
    // A team's rule, so that the editor has a style-guide problem to show while one types.
    await api('POST', 'styleguides/terms', {
      terms: [{ styleguideId: 'default', sectionId: 'wordlist', preferred: 'sign in', replaces: ['login'] }],
    });
    await api('POST', 'components', { components: [{ developerId: 'cancel', name: 'Cancel', text: 'Cancel' }] });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await dropScratch();
  });

  const leaveQuestions: string[] = [];
  async function newPage(): Promise<Page> {
    // bypassCSP: only so that axe-core can be injected; the app itself runs under its policy.
    const context = await browser.newContext({
      baseURL: server.base,
      viewport: { width: 1400, height: 900 },
      acceptDownloads: true,
      bypassCSP: true,
    });
    context.setDefaultTimeout(10_000);
    contexts.push(context);
    const page = await context.newPage();
    // Some flows leave a text with unsaved edits (typing to see a lint finding) and then go to
    // another page: the app asks first, and here the writer agrees to leave.
    page.on('dialog', (dialog) => {
      leaveQuestions.push(dialog.message());
      void dialog.accept();
    });
    return page;
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto('/');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('listbox', { name: 'Texts' }).waitFor();
  }

  const editor = (page: Page, title = 'Base text') => page.getByRole('textbox', { name: `${title} text` });

  let admin: Page;

  it('the first admin sets a password from the printed link and lands in the workspace', async () => {
    admin = await newPage();
    await admin.goto(server.passwordLink);
    await checkAccessibility(admin, '01-set-password');
    await admin.getByLabel(/New password/).fill(PASSWORD);
    await admin.getByRole('button', { name: 'Set password and sign in' }).click();
    await admin.getByRole('option', { name: /Hello/ }).waitFor();
    await checkAccessibility(admin, '02-workspace');
  });

  it('edits a text with bold and a variable; the API then has both', async () => {
    await admin.getByRole('option', { name: /Hello/ }).click();
    const text = editor(admin);
    await text.click();
    await admin.keyboard.press('Control+A');
    await admin.keyboard.type('Hi ');
    await admin.getByRole('button', { name: 'Bold' }).first().click();
    await admin.keyboard.type('there');
    await admin.getByRole('button', { name: 'Bold' }).first().click();
    await admin.keyboard.type(' ');
    await admin.getByLabel('Insert variable').first().selectOption('name');
    await expect
      .poll(() =>
        admin
          .getByText(/characters/)
          .first()
          .textContent(),
      )
      .toMatch(/^17 \/ 30 characters$/);
    await checkAccessibility(admin, '03-editor');
    await admin.getByRole('button', { name: 'Save base text' }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const records = await keyed(server)<{ id: string; text: string; richText: string; variableIds: string[] }[]>(
      'GET',
      'textItems?richText=html',
    );
    const greeting = records.find((r) => r.id === 'greeting');
    expect(greeting?.text).toBe('Hi there {{name}}');
    expect(greeting?.richText).toBe('Hi <strong>there</strong> {{name}}');
    expect(greeting?.variableIds).toEqual(['name']);
  });

  it('a conflict between two people: the second save sees the other text and keeps its own', async () => {
    const other = await newPage();
    await signIn(other, 'admin@localhost', PASSWORD);
    await admin.getByRole('option', { name: /Goodbye/ }).click();
    await editor(admin).click();
    await admin.keyboard.press('End');
    await admin.keyboard.type(' from me');

    await other.getByRole('option', { name: /Goodbye/ }).click();
    await editor(other).click();
    await other.keyboard.press('End');
    await other.keyboard.type(' from them');
    await other.getByRole('button', { name: 'Save base text' }).click();
    await other.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await admin.getByRole('button', { name: 'Save base text' }).click();
    const conflict = admin.getByRole('alert').filter({ hasText: 'Someone else changed this text' });
    await conflict.waitFor();
    await expect.poll(() => conflict.textContent()).toContain('Goodbye from them');
    await screenshot(admin, '04-conflict');
    // Both changed the text: the writer chooses, then saves the merged version.
    await conflict.getByRole('radio', { name: 'Keep mine' }).check();
    await conflict.getByRole('button', { name: 'Save merged version' }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const records = await keyed(server)<{ id: string; text: string }[]>('GET', 'textItems');
    expect(records.find((r) => r.id === 'farewell')?.text).toBe('Goodbye from me');
  });

  it("the open list shows another person's change at once, through the event stream; its reads are conditional", async () => {
    // Every list GET of this page as it went over the wire. Playwright reports the response the
    // page got (a revalidated body is a 200 from the browser's cache); the DevTools protocol's
    // extra info has the status line and the headers actually exchanged.
    const cdp = await admin.context().newCDPSession(admin);
    // The protocol's events of one request may arrive in any order: kept by request id, joined on read.
    const lists = new Set<string>();
    const sentTag = new Map<string, boolean>();
    const statuses = new Map<string, number>();
    const order: string[] = [];
    cdp.on('Network.requestWillBeSent', (event) => {
      const url = new URL(event.request.url);
      if (event.request.method === 'GET' && url.pathname === '/v2/textItems/rows') lists.add(event.requestId);
    });
    cdp.on('Network.requestWillBeSentExtraInfo', (event) => {
      sentTag.set(
        event.requestId,
        Object.keys(event.headers).some((h) => h.toLowerCase() === 'if-none-match'),
      );
    });
    // The status line as exchanged comes with the extra info, which Chromium may send before or
    // after the response itself, or not at all under load; the response event always comes, so it
    // keeps the order, and its status stands in until (unless) the extra info's arrives.
    const received = new Map<string, number>();
    cdp.on('Network.responseReceivedExtraInfo', (event) => {
      statuses.set(event.requestId, event.statusCode);
    });
    cdp.on('Network.responseReceived', (event) => {
      received.set(event.requestId, event.response.status);
      order.push(event.requestId);
    });
    const statusOf = (id: string) => statuses.get(id) ?? received.get(id);
    const polls = () =>
      order.filter((id) => lists.has(id)).map((id) => ({ status: statusOf(id), ifNoneMatch: sentTag.get(id) }));
    await cdp.send('Network.enable');
    // A marker in the page: if the page were reloaded, it would be gone.
    await admin.evaluate(() => {
      (globalThis as { notReloaded?: boolean }).notReloaded = true;
    });
    try {
      // While the event stream is open the list does not poll (docs/events.md): the write below
      // reaches the page through the stream, and the list is read again once, conditionally.
      const seen = new Set(order);

      // Someone else adds a text (through the API, as any other client would).
      await keyed(server)('POST', 'textItems', {
        projectId: 'shop',
        textItems: [{ developerId: 'added-elsewhere', text: 'Added by someone else' }],
      });
      await admin.getByRole('option', { name: /Added by someone else/ }).waitFor({ timeout: 10_000 });
      const after = () => order.filter((id) => !seen.has(id) && lists.has(id)).map(statusOf);
      await expect.poll(() => after()).toContain(200);
      expect(polls().filter((p) => p.ifNoneMatch !== true && p.status === 304)).toEqual([]);
      expect(await admin.evaluate(() => (globalThis as { notReloaded?: boolean }).notReloaded)).toBe(true);
    } finally {
      await cdp.detach();
    }
  });

  it('search finds a text in a variant; the French text shows beside the base', async () => {
    await admin.getByRole('searchbox', { name: 'Search texts' }).fill('revoir');
    await admin
      .getByRole('list', { name: 'Search results' })
      .getByRole('button', { name: /farewell/ })
      .click();
    await admin.getByRole('checkbox', { name: /French/ }).check();
    await expect.poll(() => editor(admin, 'French').textContent()).toBe('Au revoir');
  });

  it("edits a variant beside the base and adds the plural forms of the variant's locale", async () => {
    await admin.getByRole('option', { name: /Your cart/ }).click();
    // The variants chosen on the last text stay chosen.
    expect(await admin.getByRole('checkbox', { name: /French/ }).isChecked()).toBe(true);
    const base = admin.getByRole('form', { name: 'Base text' });
    const french = admin.getByRole('form', { name: 'French' });
    // Side by side: both texts in view at once.
    await expect.poll(() => editor(admin).textContent()).toBe('Your cart');
    await expect.poll(() => editor(admin, 'French').textContent()).toBe('Votre panier');
    // Each side offers the plural categories of its own locale (CLDR): English has two, French three.
    await base.getByRole('button', { name: 'Add plural forms (one, other)' }).waitFor();
    await french.getByRole('button', { name: 'Add plural forms (one, many, other)' }).click();

    await editor(admin, 'French').click();
    await admin.keyboard.press('Control+A');
    await admin.keyboard.type('Votre panier plein');
    await admin.getByRole('textbox', { name: 'French plural many' }).fill('Vos nombreux paniers');
    await admin.getByRole('textbox', { name: 'French plural other' }).fill('Vos paniers');
    await french.getByRole('button', { name: 'Save french' }).click();
    await french.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await checkAccessibility(admin, '10-variant-plurals');

    const records = await keyed(server)<
      { id: string; text: string; variantId: string | null; pluralForm: string | null }[]
    >('GET', `textItems?filter=${encodeURIComponent(JSON.stringify({ variants: [{ id: 'all' }] }))}`);
    const cart = records.filter((r) => r.id === 'cart' || r.id.startsWith('cart_'));
    // The variant's own record (its display text, the first form), then one record per form.
    expect(cart.filter((r) => r.variantId === 'fr').map((r) => [r.pluralForm, r.text])).toEqual([
      [null, 'Votre panier plein'],
      ['one', 'Votre panier plein'],
      ['many', 'Vos nombreux paniers'],
      ['other', 'Vos paniers'],
    ]);
    // The base text is untouched and has no plural forms.
    expect(cart.filter((r) => r.variantId === null).map((r) => [r.pluralForm, r.text])).toEqual([[null, 'Your cart']]);
  });

  it('shows a style-guide problem under the text while the writer types', async () => {
    const base = admin.getByRole('form', { name: 'Base text' });
    const problems = base.getByRole('list', { name: 'Style guide problems' });
    expect(await problems.count()).toBe(0);
    await editor(admin).click();
    await admin.keyboard.press('End');
    await admin.keyboard.type(' login');
    await expect.poll(() => problems.textContent()).toContain('Use "sign in" instead of "login"');
    await screenshot(admin, '11-lint');
    // Fixing the text clears the problem, again without saving.
    for (let i = 0; i < 'login'.length; i += 1) await admin.keyboard.press('Backspace');
    await admin.keyboard.type('sign in');
    await problems.waitFor({ state: 'detached' });
  });

  it('a viewer reads but cannot edit, and a write without the CSRF token is refused', async () => {
    const api = keyed(server);
    const { passwordLink } = await api<{ passwordLink: string }>('POST', 'users', {
      email: 'viewer@example.com',
      role: 'viewer',
    });
    const token = new URL(passwordLink).hash.slice('#token='.length);
    await fetch(`${server.base}/v2/session/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'viewer password' }),
    });
    const viewer = await newPage();
    await signIn(viewer, 'viewer@example.com', 'viewer password');
    await viewer.getByText(/^Open a text from the list to read it\./).waitFor();
    await viewer.getByRole('option', { name: /Hi there/ }).click();
    await expect.poll(() => editor(viewer).getAttribute('contenteditable')).toBe('false');
    expect(await viewer.getByRole('button', { name: 'Save base text' }).count()).toBe(0);
    await viewer.getByText('You can read this text but not change it').first().waitFor();
    // The text's history is there to read, with nothing a viewer could not do.
    const history = viewer.getByRole('region', { name: /^History of / });
    await history.locator('.history-entry').first().waitFor();
    expect(await history.getByRole('button', { name: /^Restore|^Undo/ }).count()).toBe(0);
    await checkAccessibility(viewer, '05-viewer');

    const statuses = await viewer.evaluate(async () => {
      const session = (await (await fetch('/v2/session')).json()) as { csrfToken: string };
      const body = JSON.stringify({ components: [{ developerId: 'forged', name: 'Forged', text: 'x' }] });
      const headers = { 'content-type': 'application/json' };
      const noToken = await fetch('/v2/components', { method: 'POST', headers, body });
      const withToken = await fetch('/v2/components', {
        method: 'POST',
        headers: { ...headers, 'x-csrf-token': session.csrfToken },
        body,
      });
      return [noToken.status, withToken.status];
    });
    // Without the token: refused as a forged write; with it: refused for the viewer's role.
    expect(statuses).toEqual([403, 403]);
  });

  it('history, export and settings pages work and pass axe-core', async () => {
    await admin.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'History' }).click();
    await admin.getByRole('region', { name: 'Recent changes' }).getByText('farewell').first().waitFor();
    await checkAccessibility(admin, '06-history');

    await admin.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Export' }).click();
    await admin.getByLabel('Variant').selectOption('fr');
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByRole('button', { name: 'Download' }).click(),
    ]);
    const file = JSON.parse(readFileSync(String(await download.path()), 'utf8'));
    expect(file).toMatchObject({ farewell: 'Au revoir' });
    await checkAccessibility(admin, '07-export');

    await admin.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
    await admin.getByRole('button', { name: 'Create key' }).waitFor();
    await checkAccessibility(admin, '08-settings');
  });
  it('imports an i18next file into a project: preview, then import; the API has the texts', async () => {
    const page = admin.getByRole('main');
    await admin.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Import' }).click();
    const file = JSON.stringify({ checkout: 'Check out', 'bad key': 'x' });
    await page
      .getByLabel('File')
      .setInputFiles({ name: 'en.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await page.getByLabel('Format').selectOption('json_i18next');
    await page.getByLabel('Into').selectOption('shop');
    await page.getByRole('button', { name: 'Preview' }).click();
    const result = page.getByRole('status', { name: 'Import result' });
    await result.getByText('Preview: nothing written yet').waitFor();
    await expect.poll(() => result.textContent()).toMatch(/Created1.*Skipped1.*bad key/);
    const api = keyed(server);
    const before = await api<{ id: string }[]>('GET', 'textItems');
    expect(before.some((r) => r.id === 'checkout')).toBe(false);

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await result.getByText('Imported').waitFor();
    await checkAccessibility(admin, '09-import');
    const records = await api<{ id: string; text: string; projectId: string }[]>('GET', 'textItems');
    expect(records.find((r) => r.id === 'checkout')).toMatchObject({ text: 'Check out', projectId: 'shop' });

    // A file that does not parse: the server's 400 message is shown, and nothing is reported.
    await page
      .getByLabel('File')
      .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ nope') });
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^json_i18next file, .*not valid JSON/);
    expect(await result.count()).toBe(0);
  });
  it('a page that fails to render shows the error and a way to try again, never a blank page', async () => {
    const nav = admin.getByRole('navigation', { name: 'Pages' });
    await nav.getByRole('link', { name: 'Texts' }).click();
    // A history answer the page cannot draw (a change without its fields).
    await admin.route('**/v2/history?limit=50', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ changes: [{ id: '1', at: new Date().toISOString(), fields: null }] }),
      }),
    );
    await nav.getByRole('link', { name: 'History' }).click();
    const problem = admin.getByRole('alert').filter({ hasText: 'This page could not be shown' });
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/could not be shown.*(null|undefined)/);
    // The rest of the app still works around it: the navigation is there.
    expect(await nav.getByRole('link', { name: 'Export' }).isVisible()).toBe(true);
    await checkAccessibility(admin, '12-page-error');

    await admin.unroute('**/v2/history?limit=50');
    await problem.getByRole('button', { name: 'Try again' }).click();
    await admin.getByRole('region', { name: 'Recent changes' }).waitFor();
    expect(await problem.count()).toBe(0);
  });

  it('the keyboard focus is visible on every page', async () => {
    const nav = admin.getByRole('navigation', { name: 'Pages' });
    /** Tabs through the first elements of the page; answers those that showed no outline. */
    const unseen = async (): Promise<string[]> => {
      const missing: string[] = [];
      for (let step = 0; step < 12; step += 1) {
        await admin.keyboard.press('Tab');
        const hidden = await admin.evaluate((): string | null => {
          // Runs in the page.
          const el = (globalThis as any).document.activeElement;
          if (!el || el.tagName === 'BODY') return null;
          const style = (globalThis as any).getComputedStyle(el);
          const outlined = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
          if (outlined || style.boxShadow !== 'none') return null;
          return `${el.tagName.toLowerCase()} "${String(el.getAttribute('aria-label') ?? el.textContent).slice(0, 40)}"`;
        });
        if (hidden) missing.push(hidden);
      }
      return missing;
    };
    for (const name of ['Texts', 'History', 'Import', 'Export', 'Settings']) {
      await nav.getByRole('link', { name }).click();
      expect(await unseen(), name).toEqual([]);
    }
    // The editor: its text box (which draws no outline of its own), toolbar and fields.
    await nav.getByRole('link', { name: 'Texts' }).click();
    await admin.getByRole('option', { name: /Your cart/ }).click();
    await editor(admin).click();
    const outline = await editor(admin).evaluate((el) => (globalThis as any).getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
    expect(await unseen(), 'editor').toEqual([]);
  });
});
