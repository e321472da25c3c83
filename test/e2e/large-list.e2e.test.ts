import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility } from './browser.js';
import { openStage, type Stage } from './people.js';
import { keyed } from './server.js';

/**
 * A project of 20,000 texts in Chromium against a real server: the list opens on its first page
 * with the total, without reading the project whole; dragging the scrollbar to the end shows the
 * last texts; a filter and a search are answered by the server, with their counts; the open text
 * is read on its own. The app's requests are watched on the wire (docs/app-list.md).
 */
const TEXTS = 20_000;
const BATCH = 1000;
let stage: Stage;

const number = (i: number) => String(i).padStart(5, '0');

describe('a project of 20,000 texts in Chromium', { timeout: 300_000 }, () => {
  let page: Page;
  /** Every API request the page made, by path and query. */
  const requests: URL[] = [];

  beforeAll(async () => {
    stage = await openStage();
    const api = keyed(stage.server);
    await api('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr' }] });
    await api('POST', 'projects', { projects: [{ name: 'Big', developerId: 'big' }] });
    for (let start = 0; start < TEXTS; start += BATCH) {
      await api('POST', 'textItems', {
        projectId: 'big',
        textItems: Array.from({ length: BATCH }, (_, j) => {
          const i = start + j;
          return {
            developerId: `text-${number(i)}`,
            text: `Row ${number(i)} of the big project`,
            status: i % 10 === 0 ? 'WIP' : 'NONE',
            ...(i % 1000 === 7 ? { tags: ['rare'] } : {}),
          };
        }),
      });
    }
    await stage.person('eda@example.com', 'Eda Editor', 'editor', 'editor password');
  }, 300_000);

  afterAll(() => stage?.close());

  const rows = () => page.getByRole('listbox', { name: 'Texts' }).getByRole('option');
  const status = () => page.locator('.list-tools [role="status"]');

  it('opens on the first page and the total, without reading the project whole', async () => {
    page = await stage.signedIn('eda@example.com', 'editor password');
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v2/')) requests.push(url);
    });
    await page.goto('/projects/big');
    await rows().filter({ hasText: 'Row 00000 of the big project' }).waitFor();
    await expect.poll(() => status().textContent()).toBe('20000 texts');
    // Only the rows in view (and a few around them) are in the page.
    expect(await rows().count()).toBeLessThan(60);
    // No read of the whole project: the list's reads are pages of at most 100 rows.
    expect(requests.filter((u) => u.pathname === '/v2/textItems')).toEqual([]);
    const pages = requests.filter((u) => u.pathname === '/v2/textItems/rows');
    expect(pages.length).toBeGreaterThan(0);
    for (const u of pages) expect(Number(u.searchParams.get('limit'))).toBeLessThanOrEqual(100);
    await checkAccessibility(page, 'large-list-01-open');
  });

  it('a drag of the scrollbar to the end shows the last texts; to the middle, the middle ones', async () => {
    const scroller = page.locator('.scroller');
    await scroller.evaluate((el) => {
      const box = el as unknown as { scrollTop: number; scrollHeight: number };
      box.scrollTop = box.scrollHeight;
    });
    await rows()
      .filter({ hasText: `Row ${number(TEXTS - 1)} of the big project` })
      .waitFor();
    await scroller.evaluate((el) => {
      const box = el as unknown as { scrollTop: number; scrollHeight: number };
      box.scrollTop = box.scrollHeight / 2;
    });
    await rows()
      .filter({ hasText: /Row 09\d\d\d|Row 10\d\d\d/ })
      .first()
      .waitFor();
    // The window was read by its position, not by walking the pages before it.
    const offsets = requests
      .filter((u) => u.pathname === '/v2/textItems/rows')
      .map((u) => Number(u.searchParams.get('offset') ?? 0));
    expect(offsets.filter((o) => o > 0 && o < 9_000)).toEqual([]);
  });

  it('filters and searches on the server, with counts; opens a text found', async () => {
    await page.getByText('Filters', { exact: true }).click();
    const statusGroup = page.getByRole('group', { name: 'Status', exact: true });
    await expect.poll(() => statusGroup.getByText(/In Progress/).textContent()).toContain('(2000)');
    await page
      .getByRole('group', { name: 'Tags' })
      .getByRole('checkbox', { name: /rare \(20\)/ })
      .check();
    await expect.poll(() => status().textContent()).toBe('20 texts match the filters');
    // Every row in view is one of the tagged texts (those numbered ...007).
    await expect.poll(async () => (await rows().allTextContents()).filter((t) => !/Row \d\d007 /.test(t))).toEqual([]);
    expect(await rows().count()).toBeGreaterThan(5);
    await statusGroup.getByRole('checkbox', { name: /In Progress/ }).check();
    await expect.poll(() => new URL(page.url()).search).toBe('?status=WIP&tags=rare');
    await page.getByText('No texts here.').waitFor();

    await page.goto('/projects/big?q=12345');
    await expect.poll(() => status().textContent()).toBe('1 text matches the filters');
    await rows().filter({ hasText: 'Row 12345 of the big project' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/projects/big/texts/text-12345');
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Base text text' }).textContent())
      .toBe('Row 12345 of the big project');
    await checkAccessibility(page, 'large-list-02-search');
  });
});
