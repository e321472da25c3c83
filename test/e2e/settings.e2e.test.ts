import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requireBrowserAndApp, scratchDatabase, screenshot, withAxe } from './browser.js';
import { keyed, type RealServer, startServer } from './server.js';

/**
 * The settings page in headless Chromium against a real server: each section's writes through
 * the forms, checked back through the API; the API's 400 messages shown beside the form; a style
 * guide rule that the editor then reports; a webhook whose deliveries reach a receiver on
 * 127.0.0.1 and show in the log; a key that stops working once revoked; what a viewer sees; and
 * axe-core on every section. Screenshots go to test-results/ (not committed).
 */
const PASSWORD = 'settings admin password';

interface Received {
  headers: IncomingHttpHeaders;
  body: { event: string; data: { id: string } };
}

/** A webhook receiver on 127.0.0.1 that keeps what it is sent and answers `answer`. */
function startReceiver() {
  const received: Received[] = [];
  const state = { answer: 200 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(state.answer, { 'content-type': 'text/plain' }).end(state.answer === 200 ? 'ok' : 'receiver down');
    });
  });
  return {
    received,
    state,
    listen: () =>
      new Promise<string>((done) =>
        server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)),
      ),
    close: () => new Promise((done) => server.close(done)),
  };
}

let server: RealServer;
let dropScratch = async () => {};
let browser: Browser;
const contexts: BrowserContext[] = [];
const receiver = startReceiver();
let receiverUrl = '';

describe('the settings page in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    requireBrowserAndApp();
    receiverUrl = await receiver.listen();
    const database = await scratchDatabase();
    dropScratch = database.drop;
    // The receiver is on loopback, which webhooks may reach only when allowed; the worker looks
    // for due deliveries often so that the log fills while the test waits.
    server = await startServer(database.url, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '100' });
    const api = keyed(server);
    await api('POST', 'projects', { projects: [{ name: 'Shop', developerId: 'shop' }] });
    await api('POST', 'textItems', { projectId: 'shop', textItems: [{ developerId: 'greeting', text: 'Hello' }] });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await receiver.close();
    await dropScratch();
  });

  const leaveQuestions: string[] = [];
  async function newPage(): Promise<Page> {
    // bypassCSP: only so that axe-core can be injected; the app itself runs under its policy.
    const context = await browser.newContext({
      baseURL: server.base,
      viewport: { width: 1400, height: 900 },
      bypassCSP: true,
    });
    context.setDefaultTimeout(15_000);
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

  /** A screenshot of the section, then axe-core over it: no serious or critical violation. */
  async function checkSection(page: Page, id: string, name: string): Promise<void> {
    const section = page.locator(`#${id}`);
    await screenshot(section, `settings-${name}`);
    await withAxe(page);
    const violations = await page.evaluate(async (selector): Promise<string[]> => {
      const result = await (globalThis as any).axe.run({ include: [selector] }, { runOnly: ['wcag2a', 'wcag2aa'] });
      return result.violations
        .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v: { id: string; nodes: { target: string[] }[] }) =>
            `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        );
    }, `#${id}`);
    expect(violations, name).toEqual([]);
  }

  const alertIn = (scope: Locator) => scope.getByRole('alert');

  let admin: Page;
  const api = <T = any>(method: string, path: string, body?: unknown) => keyed(server)<T>(method, path, body);
  const section = (id: string) => admin.locator(`#${id}`);

  it('the first admin signs in and opens the settings', async () => {
    admin = await newPage();
    await admin.goto(server.passwordLink);
    await admin.getByLabel(/New password/).fill(PASSWORD);
    await admin.getByRole('button', { name: 'Set password and sign in' }).click();
    await admin.getByRole('option', { name: /Hello/ }).waitFor();
    await admin.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
    await admin.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const toc = admin.getByRole('navigation', { name: 'Settings sections' });
    expect(await toc.getByRole('link').allTextContents()).toEqual([
      'Variants',
      'Variables',
      'Status workflow',
      'Style guides',
      'People and roles',
      'API keys',
      'Pinned releases',
      'Email notifications',
      'Webhooks',
      'Machine translation',
    ]);
  });

  it('variants: create, a refused create shows the API message, edit, delete after confirming', async () => {
    const variants = section('variants');
    const create = variants.getByRole('form', { name: 'New variant' });
    await create.getByLabel('Name').fill('German');
    await create.getByLabel('Locale (optional)').fill('de');
    await create.getByLabel('Description').fill('For Germany');
    await create.getByRole('button', { name: 'Add variant' }).click();
    await variants.getByRole('button', { name: 'Edit German' }).waitFor();
    expect(await api('GET', 'variants')).toEqual([
      { id: 'german', name: 'German', description: 'For Germany', localeCode: 'de' },
    ]);

    // A developer ID that is taken: the API's message, beside the form; nothing is created.
    await create.getByLabel('Name').fill('Other German');
    await create.getByLabel('Developer ID (optional)').fill('german');
    await create.getByRole('button', { name: 'Add variant' }).click();
    await expect.poll(() => alertIn(create).textContent()).toMatch(/german/);
    expect(await api('GET', 'variants')).toHaveLength(1);
    await checkSection(admin, 'variants', 'variants');

    await variants.getByRole('button', { name: 'Edit German' }).click();
    const edit = variants.getByRole('form', { name: 'Edit variant German' });
    await edit.getByLabel('Name').fill('Deutsch');
    await edit.getByLabel('Developer ID').fill('de-de');
    await edit.getByLabel('Locale').fill('de-DE');
    await edit.getByRole('button', { name: 'Save variant' }).click();
    await variants.getByRole('button', { name: 'Edit Deutsch' }).waitFor();
    expect(await api('GET', 'variants')).toEqual([
      { id: 'de-de', name: 'Deutsch', description: 'For Germany', localeCode: 'de-DE' },
    ]);

    await variants.getByRole('button', { name: 'Delete Deutsch' }).click();
    const confirm = variants.getByRole('group', { name: 'Confirm: delete Deutsch' });
    // Focus is on Cancel: a second Enter does not delete.
    await admin.keyboard.press('Enter');
    expect(await confirm.count()).toBe(0);
    expect(await api('GET', 'variants')).toHaveLength(1);
    await variants.getByRole('button', { name: 'Delete Deutsch' }).click();
    await confirm.getByRole('button', { name: 'Yes, delete Deutsch' }).focus();
    await admin.keyboard.press('Enter');
    await variants.getByText('No variants yet.').waitFor();
    // The row went with its buttons; the keyboard stays in the section.
    await expect.poll(() => admin.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('variants');
    expect(await api('GET', 'variants')).toEqual([]);
  });

  it('variables: one of each type, a bad one refused with its message, edit, delete', async () => {
    const variables = section('variables');
    const create = variables.getByRole('form', { name: 'New variable' });
    const add = async (name: string, type: string, fill: Record<string, string>) => {
      await create.getByLabel('Type').selectOption(type);
      await create.getByLabel('Name').fill(name);
      for (const [label, value] of Object.entries(fill)) await create.getByLabel(label).fill(value);
      await create.getByRole('button', { name: 'Add variable' }).click();
    };
    await add('user', 'string', { Example: 'Ada', 'Fallback (optional)': 'there' });
    await variables.getByRole('button', { name: 'Edit user' }).waitFor();
    await add('age', 'number', { Example: '21' });
    await variables.getByRole('button', { name: 'Edit age' }).waitFor();
    await add('help', 'hyperlink', { 'Link text': 'Help', URL: 'https://example.com/help' });
    await variables.getByRole('button', { name: 'Edit help' }).waitFor();
    await add('sizes', 'list', { 'Items, one per line': 'S\nM\nL' });
    await variables.getByRole('button', { name: 'Edit sizes' }).waitFor();
    await add('plan', 'map', { 'Entries, one key = value per line': 'free = Free\npro = Pro' });
    await variables.getByRole('button', { name: 'Edit plan' }).waitFor();
    expect(await api('GET', 'variables')).toEqual([
      { id: 'user', name: 'user', type: 'string', data: { example: 'Ada', fallback: 'there' } },
      { id: 'age', name: 'age', type: 'number', data: { example: 21 } },
      { id: 'help', name: 'help', type: 'hyperlink', data: { text: 'Help', url: 'https://example.com/help' } },
      { id: 'sizes', name: 'sizes', type: 'list', data: ['S', 'M', 'L'] },
      { id: 'plan', name: 'plan', type: 'map', data: { free: 'Free', pro: 'Pro' } },
    ]);

    // A number that is not one: the API names the field, beside the form.
    await add('count', 'number', { Example: 'many' });
    await expect.poll(() => alertIn(create).textContent()).toMatch(/example must be a number/);
    expect((await api<unknown[]>('GET', 'variables')).length).toBe(5);
    await checkSection(admin, 'variables', 'variables');

    await variables.getByRole('button', { name: 'Edit age' }).click();
    const edit = variables.getByRole('form', { name: 'Edit variable age' });
    await edit.getByLabel('Example').fill('30');
    await edit.getByLabel('Fallback (optional)').fill('18');
    await edit.getByRole('button', { name: 'Save variable' }).click();
    await variables.getByRole('button', { name: 'Edit age' }).waitFor();
    await variables.getByRole('button', { name: 'Edit plan' }).click();
    await variables
      .getByRole('form', { name: 'Edit variable plan' })
      .getByLabel(/Entries/)
      .fill('free = Gratis');
    await variables.getByRole('button', { name: 'Save variable' }).click();
    await variables.getByRole('button', { name: 'Edit plan' }).waitFor();

    await variables.getByRole('button', { name: 'Delete sizes' }).click();
    await variables.getByRole('button', { name: 'Yes, delete sizes' }).click();
    await expect.poll(() => variables.getByRole('button', { name: 'Edit sizes' }).count()).toBe(0);
    const stored = await api<{ id: string; data: unknown }[]>('GET', 'variables');
    expect(stored.map((v) => v.id)).toEqual(['user', 'age', 'help', 'plan']);
    expect(stored.find((v) => v.id === 'age')?.data).toEqual({ example: 30, fallback: 18 });
    expect(stored.find((v) => v.id === 'plan')?.data).toEqual({ free: 'Gratis' });
  });

  it('the workflow: add, reorder, rename, delete a status whose texts move', async () => {
    const workflow = section('workflow');
    const create = workflow.getByRole('form', { name: 'New status' });
    await create.getByLabel('Name').fill('Legal review');
    await create.getByRole('button', { name: 'Add status' }).click();
    await workflow.getByRole('button', { name: 'Move Legal review up' }).click();
    await expect
      .poll(async () => (await api<{ id: string }[]>('GET', 'statuses')).map((s) => s.id))
      .toEqual(['NONE', 'WIP', 'REVIEW', 'LEGAL_REVIEW', 'FINAL']);
    const order = () => workflow.getByRole('listitem').locator('code').allTextContents();
    await expect.poll(order).toEqual(['NONE', 'WIP', 'REVIEW', 'LEGAL_REVIEW', 'FINAL']);
    // Focus stays on the moved status's button: the keyboard moves it again.
    await admin.keyboard.press('Enter');
    await expect.poll(order).toEqual(['NONE', 'WIP', 'LEGAL_REVIEW', 'REVIEW', 'FINAL']);
    await expect
      .poll(async () => (await api<{ id: string }[]>('GET', 'statuses')).map((s) => s.id))
      .toEqual(['NONE', 'WIP', 'LEGAL_REVIEW', 'REVIEW', 'FINAL']);

    await workflow.getByRole('button', { name: 'Rename Legal review' }).click();
    const rename = workflow.getByRole('form', { name: 'Rename status Legal review' });
    await rename.getByLabel('New name').fill('Legal');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await workflow.getByRole('button', { name: 'Rename Legal' }).waitFor();
    await checkSection(admin, 'workflow', 'workflow');

    // A text in the status goes to the one picked when the status is deleted.
    await api('PATCH', 'textItems', { updates: [{ developerId: 'greeting', status: 'LEGAL_REVIEW' }] });
    await workflow.getByRole('button', { name: 'Delete Legal' }).click();
    const confirm = workflow.getByRole('group', { name: 'Confirm: delete Legal' });
    await confirm.getByLabel('Its texts move to').selectOption('REVIEW');
    await confirm.getByRole('button', { name: 'Yes, delete Legal' }).click();
    await expect.poll(() => workflow.getByRole('button', { name: 'Rename Legal' }).count()).toBe(0);
    expect(await api('GET', 'statuses')).toEqual([
      { id: 'NONE', name: 'Draft' },
      { id: 'WIP', name: 'In Progress' },
      { id: 'REVIEW', name: 'In Review' },
      { id: 'FINAL', name: 'Final' },
    ]);
    const records = await api<{ id: string; status: string }[]>('GET', 'textItems');
    expect(records.find((r) => r.id === 'greeting')?.status).toBe('REVIEW');
  });

  it('style guides: a rule in the default guide shows under the text in the editor; a guide with a term', async () => {
    const guides = section('styleguides');
    const rule = guides.getByRole('form', { name: 'New rule in Default' });
    await rule.waitFor();
    await rule.getByLabel('Rule').fill('Sign in, not login');
    await rule.getByLabel('Check').selectOption('regex');
    await rule.getByLabel('Pattern').fill('\\blog ?in\\b');
    await rule.getByLabel('Flags').fill('i');
    await rule.getByLabel('Replacement').fill('sign in');
    await rule.getByLabel('Message').fill('Write "sign in", not "login"');
    await rule.getByRole('button', { name: 'Add rule' }).click();
    await guides.getByRole('button', { name: 'Edit rule Sign in, not login' }).waitFor();
    const [stored] = await api<{ id: string; rules: { name: string; check: unknown }[] }[]>('GET', 'styleguides');
    expect(stored?.rules).toEqual([
      expect.objectContaining({
        name: 'Sign in, not login',
        check: {
          type: 'regex',
          pattern: '\\blog ?in\\b',
          flags: 'i',
          replacement: 'sign in',
          message: 'Write "sign in", not "login"',
        },
      }),
    ]);

    // A pattern that does not compile: the API's message beside the form.
    await rule.getByLabel('Rule').fill('Broken');
    await rule.getByLabel('Pattern').fill('(unclosed');
    await rule.getByLabel('Message').fill('Never shown');
    await rule.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => alertIn(rule).textContent()).toMatch(/pattern/);

    // A new guide, enabled for all texts, with a wordlist term that is edited and then deleted.
    const create = guides.getByRole('form', { name: 'New style guide' });
    await create.getByLabel('Name').fill('Voice');
    await create.getByLabel('Description').fill('How we sound');
    await create.getByLabel('Enabled for all texts').check();
    await create.getByRole('button', { name: 'Add style guide' }).click();
    const term = guides.getByRole('form', { name: 'New term in Voice' });
    await term.getByLabel('Preferred term').fill('cart');
    await term.getByLabel('Instead of (comma-separated)').fill('basket, trolley');
    await term.getByRole('button', { name: 'Add term' }).click();
    await guides.getByRole('button', { name: 'Edit term cart' }).click();
    const editTerm = guides.getByRole('form', { name: 'Edit term cart' });
    await editTerm.getByLabel('Note').fill('US English');
    await editTerm.getByRole('button', { name: 'Save term' }).click();
    await guides.getByRole('button', { name: 'Edit term cart' }).waitFor();
    await checkSection(admin, 'styleguides', 'styleguides');
    const voice = (await api<any[]>('GET', 'styleguides')).find((g) => g.id === 'voice');
    expect(voice).toMatchObject({ name: 'Voice', description: 'How we sound', enabledByDefault: true });
    expect(voice.terms).toEqual([
      expect.objectContaining({
        preferred: 'cart',
        replaces: ['basket', 'trolley'],
        note: 'US English',
        caseSensitive: false,
      }),
    ]);

    // In the editor, both guides are in effect: the rule and the term report under the text.
    await admin.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Texts' }).click();
    await admin.getByRole('option', { name: /Hello/ }).click();
    const text = admin.getByRole('textbox', { name: 'Base text text' });
    await text.click();
    await admin.keyboard.press('Control+A');
    await admin.keyboard.type('Login to see your basket');
    const problems = admin.getByRole('list', { name: 'Style guide problems' });
    await expect
      .poll(async () => (await problems.count()) > 0 && (await problems.textContent()))
      .toMatch(/Write "sign in", not "login"/);
    expect(await problems.textContent()).toMatch(/cart/);
    await screenshot(admin, 'settings-lint-in-editor');

    await admin.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
    await guides.getByRole('button', { name: 'Delete style guide Voice' }).click();
    await guides.getByRole('button', { name: 'Yes, delete style guide Voice' }).click();
    await expect
      .poll(async () => (await api<{ id: string }[]>('GET', 'styleguides')).map((g) => g.id))
      .toEqual(['default']);
    // The built-in guide cannot be deleted: no button offers it.
    expect(await guides.getByRole('button', { name: 'Delete style guide Default' }).count()).toBe(0);
  });

  it('API keys: one created is shown once and works; revoked, the API refuses it', async () => {
    const keys = section('keys');
    await keys.getByLabel('New key name').fill('CI');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const shown = keys.getByRole('status').locator('code');
    await shown.waitFor();
    const key = String(await shown.textContent());
    expect(key).toMatch(/^cdk_/);
    const asKey = () => fetch(`${server.base}/v2/projects`, { headers: { authorization: key } }).then((r) => r.status);
    expect(await asKey()).toBe(200);
    await checkSection(admin, 'keys', 'keys');

    await keys.getByRole('button', { name: 'Revoke key CI' }).click();
    await keys.getByRole('button', { name: 'Yes, revoke key CI' }).click();
    await keys.getByText(/^revoked/).waitFor();
    expect(await asKey()).toBe(401);
  });

  it("pinned releases: an admin pins the project; a key's export of it then answers the release", async () => {
    await api('POST', 'releases', { name: 'pin-1', filter: { statuses: [] } });
    await api('PATCH', 'textItems', { updates: [{ developerId: 'greeting', text: 'Hello again' }] });
    // The section reads the releases when the page opens.
    await admin.reload();
    const pins = section('pinned-releases');
    const select = pins.getByLabel('Release pinned for Shop');
    await expect.poll(() => select.locator('option').allTextContents()).toEqual(['Current text (not pinned)', 'pin-1']);
    await select.selectOption('pin-1');
    await pins.getByRole('status').filter({ hasText: 'Shop is pinned to pin-1.' }).waitFor();
    await checkSection(admin, 'pinned-releases', 'pinned-releases');

    const shop = encodeURIComponent(JSON.stringify({ projects: [{ id: 'shop' }] }));
    const pull = () =>
      fetch(`${server.base}/v2/textItems/export?format=json_i18next&filter=${shop}`, {
        headers: { authorization: server.key },
      });
    const pinned = await pull();
    expect(pinned.headers.get('x-copydesk-release')).toBe('pin-1');
    expect(await pinned.json()).toEqual({ greeting: 'Hello' });

    await select.selectOption('');
    await pins.getByRole('status').filter({ hasText: 'Shop reads its current text.' }).waitFor();
    expect(await (await pull()).json()).toEqual({ greeting: 'Hello again' });
    expect((await api('GET', 'releasePins')).pins).toEqual([]);
    await api('PATCH', 'textItems', { updates: [{ developerId: 'greeting', text: 'Hello' }] });
  });

  it('webhooks: signing key, a refused test delivery, a webhook whose deliveries show and redeliver', async () => {
    const hooks = section('webhooks');
    await hooks.getByRole('button', { name: 'Generate a key' }).click();
    const generated = await hooks
      .getByRole('form', { name: 'Signing key' })
      .getByLabel(/Signing key/)
      .inputValue();
    expect(generated).toMatch(/^[0-9a-f]{64}$/);
    await hooks.getByRole('button', { name: 'Set signing key' }).click();
    await hooks.getByText(`Signing key set, ending in ${generated.slice(-4)}.`).waitFor();
    expect(await api('GET', 'webhooks/signingKey')).toEqual({ configured: true, lastFour: generated.slice(-4) });

    // The receiver is down: the test delivery fails and the API's message shows beside the form.
    receiver.state.answer = 503;
    const create = hooks.getByRole('form', { name: 'New webhook' });
    await create.getByLabel('Name').fill('Rebuild');
    await create.getByLabel('URL').fill(receiverUrl);
    await create.getByLabel('variants.changed').check();
    await create.getByRole('button', { name: 'Add webhook' }).click();
    await expect.poll(() => alertIn(create).textContent()).toMatch(/503/);
    expect(await api('GET', 'webhooks')).toEqual([]);

    receiver.state.answer = 200;
    await create.getByRole('button', { name: 'Add webhook' }).click();
    await hooks.getByRole('button', { name: 'Edit webhook Rebuild' }).waitFor();
    const test = receiver.received.at(-1);
    expect(test?.body.event).toBe('webhook.test');
    expect(test?.headers['x-ditto-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(await api('GET', 'webhooks')).toEqual([
      expect.objectContaining({ id: 'rebuild', url: receiverUrl, events: ['variants.changed'], enabled: true }),
    ]);

    // Edit: subscribe to variables too.
    await hooks.getByRole('button', { name: 'Edit webhook Rebuild' }).click();
    const edit = hooks.getByRole('form', { name: 'Edit webhook Rebuild' });
    await edit.getByLabel('variables.changed').check();
    await edit.getByRole('button', { name: 'Save webhook' }).click();
    await hooks.getByRole('button', { name: 'Edit webhook Rebuild' }).waitFor();
    expect((await api<{ events: string[] }[]>('GET', 'webhooks'))[0]?.events.sort()).toEqual([
      'variables.changed',
      'variants.changed',
    ]);

    // A change sends an event; the log shows its delivery once the worker has sent it.
    await api('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
    await expect.poll(() => receiver.received.filter((r) => r.body.event === 'variants.changed').length).toBe(1);
    const log = hooks.getByRole('table', { name: 'Delivery log' });
    await expect
      .poll(async () => {
        await hooks.getByRole('button', { name: 'Refresh' }).click();
        return (await log.count()) > 0 ? log.getByRole('row').nth(1).textContent() : '';
      })
      .toMatch(/rebuild.*variants\.changed.*1.*succeeded.*200/);

    await log.getByRole('button', { name: /^Redeliver variants\.changed/ }).click();
    await hooks.getByRole('status').filter({ hasText: 'queued again' }).waitFor();
    await expect.poll(() => receiver.received.filter((r) => r.body.event === 'variants.changed').length).toBe(2);
    const [first, again] = receiver.received.filter((r) => r.body.event === 'variants.changed');
    expect(again?.body.data.id).toBe(first?.body.data.id);
    await expect
      .poll(async () => {
        await hooks.getByRole('button', { name: 'Refresh' }).click();
        return log.getByRole('row').nth(1).textContent();
      })
      .toMatch(/variants\.changed.*2.*succeeded.*200/);

    // What the receiver answered, behind a disclosure.
    await log.getByRole('row').nth(1).getByText('Answer').click();
    await log.getByRole('row').nth(1).getByText('ok', { exact: true }).waitFor();

    // Filters: no failed attempts; paging is by the API's cursor.
    const filter = hooks.getByRole('form', { name: 'Filter deliveries' });
    await filter.getByLabel('State').selectOption('failed');
    await filter.getByRole('button', { name: 'Show' }).click();
    await hooks.getByText('No deliveries.').waitFor();
    await filter.getByLabel('State').selectOption('succeeded');
    await filter.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => log.getByRole('row').count()).toBe(3);
    await checkSection(admin, 'webhooks', 'webhooks');

    // More attempts than a page: the next page follows the cursor, oldest attempt last.
    for (let n = 0; n < 25; n += 1)
      await api('POST', 'variants', { variants: [{ name: `Variant ${n}`, developerId: `v${n}` }] });
    await expect.poll(() => receiver.received.filter((r) => r.body.event === 'variants.changed').length).toBe(27);
    await filter.getByLabel('State').selectOption('');
    // A page of 25 attempts (and the header row), once the worker has recorded them all.
    await expect
      .poll(async () => {
        await filter.getByRole('button', { name: 'Show' }).click();
        return [await log.getByRole('row').count(), await log.getByText('pending').count()];
      })
      .toEqual([26, 0]);
    await hooks.getByRole('button', { name: 'Older attempts' }).click();
    await expect.poll(() => log.getByRole('row').count()).toBe(28);
    await expect.poll(() => log.getByRole('row').last().textContent()).toMatch(/variants\.changed1succeeded200/);
    expect(await hooks.getByRole('button', { name: 'Older attempts' }).count()).toBe(0);

    await hooks.getByRole('button', { name: 'Delete webhook Rebuild' }).click();
    await hooks.getByRole('button', { name: 'Yes, delete webhook Rebuild' }).click();
    await hooks.getByText('No webhooks yet.').waitFor();
    expect(await api('GET', 'webhooks')).toEqual([]);
  });

  it('an editor changes text settings but sees the workflow and people read-only, and no webhooks', async () => {
    const { passwordLink } = await api<{ passwordLink: string }>('POST', 'users', {
      email: 'writer@example.com',
      role: 'editor',
    });
    const editor = await newPage();
    await editor.goto(`/set-password${new URL(passwordLink).hash}`);
    await editor.getByLabel(/New password/).fill('writer password');
    await editor.getByRole('button', { name: 'Set password and sign in' }).click();
    await editor.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
    await editor.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    for (const form of ['New variant', 'New variable', 'New style guide', 'New API key'])
      expect(await editor.getByRole('form', { name: form }).count(), form).toBe(1);
    for (const form of ['New status', 'Invite someone', 'New webhook'])
      expect(await editor.getByRole('form', { name: form }).count(), form).toBe(0);
    expect(await editor.locator('#workflow').getByRole('button').count()).toBe(0);
    expect(await editor.locator('#people').getByRole('combobox').count()).toBe(0);
    expect(await editor.locator('#webhooks').count()).toBe(0);
    await editor.locator('#workflow').getByText('Only admins change the workflow.').waitFor();
    await api('DELETE', `users/${encodeURIComponent('writer@example.com')}`);
  });

  it('people: an invited viewer gets a link; as a viewer, settings are read-only and webhooks absent; removed', async () => {
    const people = section('people');
    const invite = people.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill('reader@example.com');
    await invite.getByLabel('Role').selectOption('editor');
    await invite.getByRole('button', { name: 'Invite' }).click();
    const link = people.getByRole('status').locator('code');
    await link.waitFor();
    const passwordLink = String(await link.textContent());
    // The role select is as wide as its longest role: "commenter" clears the arrow (about 1em)
    // with room to spare.
    const role = people.getByLabel('Role of reader@example.com');
    await role.selectOption('commenter');
    await checkSection(admin, 'people', 'people-commenter');
    const room = await role.evaluate((select) => {
      const style = (globalThis as any).getComputedStyle(select);
      const context = (globalThis as any).document.createElement('canvas').getContext('2d');
      context.font = style.font;
      const inside = select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return { inside, text: context.measureText('commenter').width, arrow: Number.parseFloat(style.fontSize) };
    });
    expect(room.inside, JSON.stringify(room)).toBeGreaterThanOrEqual(room.text + 2 * room.arrow);
    await role.selectOption('viewer');
    await expect
      .poll(
        async () =>
          (await api<{ email: string; role: string }[]>('GET', 'users')).find((u) => u.email === 'reader@example.com')
            ?.role,
      )
      .toBe('viewer');
    // The workspace keeps an admin: the API's refusal shows in the section.
    await people.getByLabel('Role of admin@localhost').selectOption('editor');
    await expect.poll(() => alertIn(people).textContent()).toMatch(/admin/);
    await checkSection(admin, 'people', 'people');

    const viewer = await newPage();
    await viewer.goto(`/set-password${new URL(passwordLink).hash}`);
    await viewer.getByLabel(/New password/).fill('reader password');
    await viewer.getByRole('button', { name: 'Set password and sign in' }).click();
    await viewer.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
    await viewer.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await viewer.locator('#variables').getByText('{{user}}').waitFor();
    expect(await viewer.locator('#webhooks').count()).toBe(0);
    expect(
      await viewer
        .getByRole('navigation', { name: 'Settings sections' })
        .getByRole('link', { name: 'Webhooks' })
        .count(),
    ).toBe(0);
    // No form but the one for their own keys; no edit or delete buttons.
    expect(await viewer.locator('main form').count()).toBe(1);
    expect(await viewer.getByRole('form', { name: 'New API key' }).count()).toBe(1);
    expect(await viewer.getByRole('button', { name: /^(Edit|Delete|Move|Rename) / }).count()).toBe(0);
    expect(await viewer.getByLabel('Role of admin@localhost').count()).toBe(0);
    await screenshot(viewer, 'settings-viewer', { fullPage: true });
    await withAxe(viewer);
    const serious = await viewer.evaluate(async () => {
      const result = await (globalThis as any).axe.run((globalThis as any).document, {
        runOnly: ['wcag2a', 'wcag2aa'],
      });
      return result.violations
        .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
        .map((v: { id: string }) => v.id);
    });
    expect(serious).toEqual([]);
    // And the API refuses a viewer the webhooks, whatever the page shows.
    const status = await viewer.evaluate(async () => (await fetch('/v2/webhooks')).status);
    expect(status).toBe(403);

    // The admin removes them (never themselves: no button for their own row); their session ends.
    expect(await people.getByRole('button', { name: 'Remove admin@localhost' }).count()).toBe(0);
    await people.getByRole('button', { name: 'Remove reader@example.com' }).click();
    await people.getByRole('button', { name: 'Yes, remove reader@example.com' }).click();
    await expect.poll(() => people.getByRole('cell', { name: 'reader@example.com' }).count()).toBe(0);
    expect((await api<{ email: string }[]>('GET', 'users')).map((u) => u.email)).toEqual(['admin@localhost']);
    expect(await viewer.evaluate(async () => (await fetch('/v2/session')).status)).toBe(401);
  });
});
