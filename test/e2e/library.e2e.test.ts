import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility } from './browser.js';
import { openStage, type Stage } from './people.js';
import { keyed, type RealServer } from './server.js';

/**
 * The project order and the component library in Chromium against a real server: blocks and
 * texts reordered by drag and by keyboard, a text published to the library, a component placed
 * into a project as an instance, and the component's instances opened from its editor. Every
 * result is read back through the API; axe-core runs on each new state of the page.
 */
let server: RealServer;
let page: Page;
let stage: Stage;

const order = async () => {
  const api = keyed(server);
  const blocks = await api<{ id: string }[]>('GET', 'projectBlocks?projectId=shop');
  const items = await api<{ id: string; variantId: string | null; pluralForm: string | null }[]>(
    'GET',
    `textItems?filter=${encodeURIComponent(JSON.stringify({ projects: [{ id: 'shop' }] }))}&sort=project_order`,
  );
  return { blocks: blocks.map((b) => b.id), items: items.map((r) => r.id) };
};

describe('project order and the component library in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    stage = await openStage();
    server = stage.server;
    const api = keyed(server);
    await api('POST', 'projects', { projects: [{ name: 'Shop', developerId: 'shop' }] });
    // A variable, so that the editor has its picker (an instance's editor must not).
    await api('POST', 'variables', { variables: [{ name: 'name', type: 'string', data: { example: 'Ada' } }] });
    await api('POST', 'projectBlocks', {
      projectId: 'shop',
      blocks: [
        { name: 'Header', developerId: 'header' },
        { name: 'Body', developerId: 'body' },
        { name: 'Footer', developerId: 'footer' },
      ],
    });
    await api('POST', 'textItems', {
      projectId: 'shop',
      textItems: [
        { developerId: 'title', text: 'Welcome', blockId: 'header' },
        { developerId: 'intro', text: 'Pick what you like', blockId: 'body' },
        { developerId: 'help', text: 'Help', blockId: 'footer' },
        { developerId: 'legal', text: 'Legal notice', blockId: 'footer' },
        { developerId: 'contact', text: 'Contact us', blockId: 'footer' },
      ],
    });
    await api('POST', 'componentFolders', { folders: [{ name: 'Headings', developerId: 'headings' }] });
    await api('POST', 'components', {
      components: [{ developerId: 'cancel', name: 'Cancel', text: 'Cancel', status: 'FINAL' }],
    });
    // bypassCSP: only so that axe-core can be injected; the app itself runs under its policy.
    const context = await stage.browser.newContext({
      baseURL: server.base,
      viewport: { width: 1400, height: 900 },
      bypassCSP: true,
    });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    await page.goto(server.passwordLink);
    await page.getByLabel(/New password/).fill('e2e library password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('option', { name: /Welcome/ }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await stage?.close();
  });

  const blocksList = () => page.getByRole('list', { name: 'Blocks' });
  const announcement = () => page.getByRole('region', { name: 'Project order' }).getByRole('status');

  it('reorders blocks by dragging a row onto another', async () => {
    await page.getByRole('button', { name: 'Arrange blocks and texts' }).click();
    await blocksList().getByRole('listitem').first().waitFor();
    await checkAccessibility(page, 'library-01-project-order');

    const footer = blocksList().getByRole('listitem').filter({ hasText: 'Footer' });
    const header = blocksList().getByRole('listitem').filter({ hasText: 'Header' });
    await footer.getByRole('button', { name: 'Move block Footer' }).dragTo(header);
    await expect.poll(() => announcement().textContent()).toBe('Block Footer moved to position 1 of 3.');
    expect((await order()).blocks).toEqual(['footer', 'header', 'body']);
    expect(await blocksList().getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Footer'),
      expect.stringContaining('Header'),
      expect.stringContaining('Body'),
    ]);
  });

  it('reorders blocks and the texts of a block by keyboard, keeping the focus on the moved row', async () => {
    const body = blocksList().getByRole('button', { name: 'Move block Body' });
    await body.focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => announcement().textContent()).toBe('Block Body moved to position 2 of 3.');
    // The focus stayed on Body's handle: a second press moves it again.
    await expect.poll(() => body.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => announcement().textContent()).toBe('Block Body moved to position 1 of 3.');
    expect((await order()).blocks).toEqual(['body', 'footer', 'header']);

    // The texts of the footer: Contact moves to the top with the keyboard, Help down by a button.
    await page.getByText('Footer (3)').click();
    const texts = page.getByRole('list', { name: 'Texts of Footer' });
    await texts.getByRole('button', { name: 'Move text Contact us' }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => announcement().textContent()).toBe('Text contact moved to position 1 of 3 in Footer.');
    await expect.poll(async () => (await order()).items).toEqual(['intro', 'contact', 'help', 'legal', 'title']);
    await texts.getByRole('button', { name: 'Move Help down' }).click();
    await expect.poll(async () => (await order()).items).toEqual(['intro', 'contact', 'legal', 'help', 'title']);
    await checkAccessibility(page, 'library-02-reordered');

    // The list shows the new project order.
    await page.getByRole('button', { name: 'Back to the texts' }).click();
    const rows = page.getByRole('listbox', { name: 'Texts' }).getByRole('option');
    await expect.poll(() => rows.first().textContent()).toContain('Pick what you like');
  });

  it('publishes a text to the library; it then shows as an instance of the new component', async () => {
    await page.getByRole('option', { name: /Welcome/ }).click();
    await page.getByText('Publish to the library').click();
    const form = page.getByRole('form', { name: 'Publish to the library' });
    await form.getByLabel('Component name').fill('Welcome title');
    await form.getByLabel('Folder').selectOption('headings');
    await checkAccessibility(page, 'library-03-publish');
    await form.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('This text is an instance of the library component').waitFor();
    await checkAccessibility(page, 'library-04-published');

    const api = keyed(server);
    const components = await api<{ id: string; name: string; folderId: string | null; text: string }[]>(
      'GET',
      'components',
    );
    expect(components.find((c) => c.id === 'title')).toMatchObject({
      name: 'Welcome title',
      folderId: 'headings',
      text: 'Welcome',
    });
    const items = await api<{ id: string; componentId: string | null }[]>('GET', 'textItems');
    expect(items.find((r) => r.id === 'title')?.componentId).toBe('title');
  });

  it('places a library component into a project and lists it among the component’s instances', async () => {
    await page.getByRole('link', { name: 'Library root' }).click();
    await page.getByRole('option', { name: /Cancel/ }).click();
    const instances = page.getByRole('region', { name: 'Instances' });
    await instances.getByText('Not used in any project yet.').waitFor();
    const form = instances.getByRole('form', { name: 'Place in a project' });
    await form.getByLabel('Project').selectOption('shop');
    await expect.poll(() => form.getByLabel('Block').locator('option').count()).toBe(4);
    await form.getByLabel('Block').selectOption('header');
    await checkAccessibility(page, 'library-05-place');
    await form.getByRole('button', { name: 'Place instance' }).click();
    await form.getByRole('status').filter({ hasText: 'Placed in Shop as cancel.' }).waitFor();
    const list = instances.getByRole('list', { name: 'Instances of cancel' });
    await expect.poll(() => list.textContent()).toMatch(/Open cancel in Shop, block Header · FINAL/);
    await checkAccessibility(page, 'library-06-instances');

    const api = keyed(server);
    expect(await api('GET', 'textItems/instances?componentId=cancel')).toEqual([
      { id: 'cancel', projectId: 'shop', blockId: 'header', blockName: 'Header', status: 'FINAL' },
    ]);
    const items = await api<{ id: string; text: string; componentId: string | null; blockName: string | null }[]>(
      'GET',
      'textItems',
    );
    expect(items.find((r) => r.id === 'cancel')).toMatchObject({
      text: 'Cancel',
      componentId: 'cancel',
      blockName: 'Header',
    });
    // Placed at the end of its block: after the header's only other text.
    expect((await order()).items).toEqual(['intro', 'contact', 'legal', 'help', 'title', 'cancel']);
  });

  it('opens an instance from the component’s editor; a component edit shows in it; detaching it', async () => {
    await keyed(server)('PATCH', 'components', { updates: [{ developerId: 'cancel', text: 'Cancel order' }] });
    await page.getByRole('list', { name: 'Instances of cancel' }).getByRole('button', { name: 'Open cancel' }).click();
    const editor = page.getByRole('region', { name: 'Editing cancel' });
    await editor.getByText('This text is an instance of the library component').waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Shop' }).getAttribute('aria-current')).toBe('true');
    await expect.poll(() => editor.getByRole('textbox', { name: 'Base text text' }).textContent()).toBe('Cancel order');
    await checkAccessibility(page, 'library-07-instance-opened');

    // Its text is not editable here; its own status is, and saving it leaves the text alone.
    const base = editor.getByRole('form', { name: 'Base text' });
    await expect
      .poll(() => base.getByRole('textbox', { name: 'Base text text' }).getAttribute('contenteditable'))
      .toBe('false');
    expect(await base.getByRole('button', { name: /Add plural forms/ }).isDisabled()).toBe(true);
    expect(await base.getByLabel('Insert variable').count()).toBe(0);
    await base.getByLabel('Status').selectOption('REVIEW');
    await base.getByRole('button', { name: 'Save base text' }).click();
    await base.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const items = await keyed(server)<{ id: string; text: string; status: string; componentId: string }[]>(
      'GET',
      'textItems',
    );
    expect(items.find((r) => r.id === 'cancel')).toMatchObject({
      text: 'Cancel order',
      status: 'REVIEW',
      componentId: 'cancel',
    });

    // Detached, it keeps the text it showed, now its own to edit, and can be published again.
    await editor.getByRole('button', { name: 'Detach from the component' }).click();
    await editor.getByText('Publish to the library').waitFor();
    await expect
      .poll(() => base.getByRole('textbox', { name: 'Base text text' }).getAttribute('contenteditable'))
      .toBe('true');
    await checkAccessibility(page, 'library-08-detached');
    const after = await keyed(server)<{ id: string; text: string; componentId: string | null }[]>('GET', 'textItems');
    expect(after.find((r) => r.id === 'cancel')).toMatchObject({ text: 'Cancel order', componentId: null });
    expect(await keyed(server)('GET', 'textItems/instances?componentId=cancel')).toEqual([]);
  });
});
