import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility } from './browser.js';
import { openReviewStage, type Stage } from './people.js';
import { keyed } from './server.js';

/**
 * The Releases page in Chromium against a real server: an admin makes a release from the form,
 * a text is edited, a second release shows the change in its diff to the first; a distribution
 * made on the page shows its token once, the release is published to it, and the delivery URL
 * the page offers to copy, fetched from the test, serves the new text; after a reload (the token
 * gone) the token the app kept, pasted and checked, gives the URLs again, and a new token replaces
 * it (the old URL then answers 404). The API's refusal shows
 * beside the form; a viewer sees the releases but no form and no distributions. axe-core and a
 * screenshot at each state (`test-results/releases-*`).
 */
let stage: Stage;
let api: ReturnType<typeof keyed>;

const newRelease = (page: Page) =>
  page.locator('section', { has: page.getByRole('heading', { name: 'New release', exact: true }) });

async function createRelease(page: Page, name: string) {
  const form = newRelease(page);
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Create release' }).click();
}

describe('the Releases page in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    stage = await openReviewStage();
    api = keyed(stage.server);
    await api('PATCH', 'textItems', {
      updates: [
        { developerId: 'checkout', status: 'FINAL' },
        { developerId: 'welcome', status: 'FINAL' },
      ],
    });
    await stage.person('ada@example.com', 'Ada Admin', 'admin', 'admin password');
    await stage.person('vic@example.com', 'Vic Viewer', 'viewer', 'viewer password');
  }, 120_000);

  afterAll(() => stage?.close());

  it('makes two releases, shows their diff, publishes to a distribution whose URL serves the new text', async () => {
    const page = await stage.signedIn('ada@example.com', 'admin password');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Releases' }).click();
    await page.getByRole('heading', { name: 'Releases', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/releases');

    await createRelease(page, 'r1');
    await page.getByRole('button', { name: 'r1', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Changes from r1 to the current text' }).waitFor();
    await page.getByText('No change.').waitFor();
    const [first] = (
      await api<{ releases: { name: string; textItems: number; createdBy: string }[] }>('GET', 'releases')
    ).releases;
    expect(first).toMatchObject({ name: 'r1', textItems: 2, createdBy: 'ada@example.com' });

    // The API's refusal of a second r1, beside the form.
    await createRelease(page, 'r1');
    await newRelease(page).getByRole('alert').filter({ hasText: 'A release named r1 already exists' }).waitFor();

    await api('PATCH', 'textItems', { updates: [{ developerId: 'welcome', text: 'Welcome home', status: 'FINAL' }] });
    await createRelease(page, 'r2');
    await page.getByRole('heading', { name: 'Changes from r1 to r2' }).waitFor();
    const changed = page.getByRole('list', { name: 'Changed' }).getByRole('listitem');
    await expect.poll(() => changed.allTextContents()).toEqual(['text welcome (base): Welcome back → Welcome home']);
    await checkAccessibility(page, 'releases-01-diff');

    const form = page.getByRole('form', { name: 'New distribution' });
    await form.getByLabel('Name').fill('web');
    await form.getByRole('checkbox', { name: 'Shop' }).check();
    await form.getByRole('checkbox', { name: 'json_i18next' }).check();
    await form.getByRole('button', { name: 'Create distribution' }).click();
    const once = page.getByRole('region', { name: 'Token of web' });
    await once.waitFor();
    expect(await once.getByLabel('Token', { exact: true }).inputValue()).toMatch(/^cdd_/);

    await page.getByRole('button', { name: 'Publish r2 to web' }).click();
    // The distribution's row (not the release list's) says what `latest` serves now.
    const distributionRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'web', exact: true }) });
    await distributionRow.getByRole('cell', { name: 'r2', exact: true }).waitFor();
    const distributions = await api<{ distributions: { name: string; release: string }[] }>('GET', 'distributions');
    expect(distributions.distributions).toMatchObject([{ name: 'web', release: 'r2' }]);
    await checkAccessibility(page, 'releases-02-distribution');

    // The URLs the page offers to copy, fetched as an app would.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const clipboard = () => page.evaluate(() => (globalThis as any).navigator.clipboard.readText() as Promise<string>);
    await once.getByLabel('latest/base/json_i18next/shop', { exact: true }).waitFor();
    await once.getByRole('button', { name: 'Copy r2/base/json_i18next/shop' }).click();
    await once.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const fileUrl = await clipboard();
    expect(fileUrl).toBe(await once.getByLabel('r2/base/json_i18next/shop', { exact: true }).inputValue());
    expect(fileUrl).toMatch(/\/delivery\/cdd_[^/]+\/r2\/base\/json_i18next\/shop$/);
    const file = await fetch(fileUrl);
    expect(file.status).toBe(200);
    const body = await file.text();
    expect(body).toContain('Welcome home');
    expect(body).not.toContain('Welcome back');
    const manifest = await fetch(await once.getByLabel('r2/manifest.json', { exact: true }).inputValue());
    expect(manifest.status).toBe(200);
    expect(JSON.stringify(await manifest.json())).toContain('/r2/base/json_i18next/shop');
    // `latest` serves what was published.
    const latestUrl = await once.getByLabel('latest/base/json_i18next/shop', { exact: true }).inputValue();
    expect(latestUrl).toBe(fileUrl.replace('/r2/', '/latest/'));
    expect(await (await fetch(latestUrl)).text()).toBe(body);

    // Later, after a reload: the one-time token is gone, and the token the app kept gives the
    // URLs again. It goes to the delivery manifest only, never to the API.
    const keptToken = await once.getByLabel('Token', { exact: true }).inputValue();
    const keptInTab = () =>
      page.evaluate(() => {
        const storage = (globalThis as any).sessionStorage;
        const keys = Object.keys(storage).filter((k) => k.startsWith('copydesk.deliveryToken.'));
        return keys.map((k) => storage.getItem(k) as string);
      });
    const apiRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/v2/')) apiRequests.push(`${r.url()} ${r.postData() ?? ''}`);
    });
    await page.reload();
    await page.getByRole('button', { name: 'Delivery URLs of web' }).click();
    const panel = page.getByRole('region', { name: 'Delivery URLs of web' });
    const keptForm = panel.getByRole('form', { name: 'Use a token I kept' });
    await keptForm.waitFor();
    expect(await page.getByRole('region', { name: 'Token of web' }).count()).toBe(0);
    const anyInputHas = (text: string) =>
      page.locator('input').evaluateAll((inputs, t) => inputs.some((i) => (i as any).value.includes(t)), text);
    expect(await anyInputHas(keptToken)).toBe(false);
    await keptForm.getByLabel('Token').fill('cdd_not-this-one');
    await keptForm.getByRole('button', { name: 'Show URLs of web' }).click();
    await keptForm.getByRole('alert').filter({ hasText: 'No live distribution has this token' }).waitFor();
    await keptForm.getByLabel('Token').fill(keptToken);
    await keptForm.getByRole('button', { name: 'Show URLs of web' }).click();
    await panel.getByLabel('latest/base/json_i18next/shop', { exact: true }).waitFor();
    await checkAccessibility(page, 'releases-03-kept-token');
    await panel.getByRole('button', { name: 'Copy latest/base/json_i18next/shop' }).click();
    await panel.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const keptUrl = await clipboard();
    expect(keptUrl).toBe(latestUrl);
    expect(await (await fetch(keptUrl)).text()).toBe(body);
    expect(await keptInTab()).toEqual([keptToken]);
    // Kept for this tab: another reload shows the URLs without asking.
    await page.reload();
    await page.getByRole('button', { name: 'Delivery URLs of web' }).click();
    await panel.getByLabel('r2/base/json_i18next/shop', { exact: true }).waitFor();
    expect(apiRequests.length).toBeGreaterThan(0);
    expect(apiRequests.filter((r) => r.includes(keptToken))).toEqual([]);

    // A new token: shown once with its URLs; the old one is refused at once.
    await panel.getByRole('button', { name: 'Issue a new token for web' }).click();
    await panel.getByRole('button', { name: 'Yes, issue a new token for web' }).click();
    const renewed = panel.getByRole('region', { name: 'Token of web' });
    await renewed.waitFor();
    const newToken = await renewed.getByLabel('Token', { exact: true }).inputValue();
    expect(newToken).toMatch(/^cdd_/);
    expect(newToken).not.toBe(keptToken);
    expect((await fetch(fileUrl)).status).toBe(404);
    expect((await fetch(latestUrl)).status).toBe(404);
    const newUrl = await renewed.getByLabel('r2/base/json_i18next/shop', { exact: true }).inputValue();
    expect(newUrl).toBe(fileUrl.replace(keptToken, newToken));
    const renewedFile = await fetch(newUrl);
    expect(renewedFile.status).toBe(200);
    expect(await renewedFile.text()).toBe(body);
    // The replaced token is no longer kept in the tab.
    expect(await keptInTab()).toEqual([]);
    await checkAccessibility(page, 'releases-04-new-token');

    // Revoked: the token stops.
    await page.getByRole('button', { name: 'Revoke web' }).click();
    await page.getByRole('button', { name: 'Yes, revoke web' }).click();
    await distributionRow.getByRole('cell', { name: 'revoked', exact: true }).waitFor();
    expect((await fetch(newUrl)).status).toBe(404);
  });

  it('a viewer reads the releases and their diff, with no form and no distributions', async () => {
    const page = await stage.signedIn('vic@example.com', 'viewer password');
    await page.goto('/releases');
    await page.getByRole('button', { name: 'r2', exact: true }).click();
    await page.getByRole('heading', { name: 'Changes from r1 to r2' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create release' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Distributions' }).count()).toBe(0);
    await checkAccessibility(page, 'releases-05-viewer');
  });
});
