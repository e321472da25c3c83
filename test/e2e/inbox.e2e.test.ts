import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility } from './browser.js';
import { openReviewStage, type Stage } from './people.js';
import { keyed, type RealServer } from './server.js';

/**
 * The inbox in Chromium against a real server: the editor, assigned a text, is told of a
 * commenter's suggestion on it by the bell in the top bar; the inbox lists it newest first and
 * opens the suggestion focused, marking it read; "Mark all read" empties the count. The
 * commenter follows a text from its editor and is told when its status changes. Read state is
 * checked through the API; axe-core and a screenshot at each new state (`test-results/inbox-*`).
 */
let server: RealServer;
let stage: Stage;

const unreadOf = (page: Page) =>
  page.evaluate(
    async () => ((await (await fetch('/v2/notifications/unread-count')).json()) as { unread: number }).unread,
  );

describe('the inbox in Chromium: an editor and a commenter', { timeout: 120_000 }, () => {
  let commenter: Page;
  let editor: Page;

  beforeAll(async () => {
    stage = await openReviewStage();
    server = stage.server;
    const api = keyed(server);
    await api('PATCH', 'textItems', { updates: [{ developerId: 'checkout', assignee: 'eda@example.com' }] });
  }, 120_000);

  afterAll(() => stage?.close());

  it("the assignee's bell counts a suggestion on their text; the inbox opens it and marks it read", async () => {
    commenter = await stage.signedIn('carl@example.com', 'commenter password');
    await commenter.getByRole('option', { name: /Pay later/ }).click();
    await commenter.getByRole('textbox', { name: 'Base text text' }).click();
    await commenter.keyboard.press('End');
    await commenter.keyboard.type(' today');
    await commenter.getByRole('button', { name: 'Suggest change to base text' }).click();
    await commenter.getByRole('status').filter({ hasText: 'Suggestion sent' }).waitFor();

    editor = await stage.signedIn('eda@example.com', 'editor password');
    // Assigned by the admin, then the suggestion: two unread.
    const bell = editor.getByRole('link', { name: 'Inbox, 2 unread' });
    await bell.waitFor();
    await bell.click();
    const list = editor.getByRole('list', { name: 'Notifications list' });
    const items = list.getByRole('listitem');
    await expect.poll(() => items.allTextContents()).toHaveLength(2);
    expect((await items.first().textContent()) ?? '').toContain('carl@example.com suggested a change to checkout');
    expect((await items.nth(1).textContent()) ?? '').toContain('admin@localhost assigned checkout to you');
    await checkAccessibility(editor, 'inbox-01-list');

    await list.getByRole('link', { name: /suggested a change to checkout/ }).click();
    await expect
      .poll(() => editor.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label')))
      .toBe('Suggestion by carl@example.com for Base text');
    expect(new URL(editor.url()).searchParams.get('suggestion')).toMatch(/^sg_/);
    await editor.getByRole('link', { name: 'Inbox, 1 unread' }).waitFor();
    expect(await unreadOf(editor)).toBe(1);

    await editor.getByRole('link', { name: 'Inbox, 1 unread' }).click();
    await editor.getByRole('button', { name: 'Mark all read' }).click();
    await editor.getByRole('link', { name: 'Inbox', exact: true }).waitFor();
    expect(await unreadOf(editor)).toBe(0);
    await editor.getByRole('checkbox', { name: 'Unread only' }).check();
    await editor.getByText('Nothing unread.').waitFor();
    await checkAccessibility(editor, 'inbox-02-all-read');
  });

  it('a commenter follows a text and is told when its status changes', async () => {
    await commenter.getByRole('option', { name: /Welcome back/ }).click();
    const follow = commenter.getByRole('button', { name: 'Follow', exact: true });
    await follow.click();
    const following = commenter.getByRole('button', { name: 'Following', exact: true });
    await expect.poll(() => following.getAttribute('aria-pressed')).toBe('true');
    const follows = await commenter.evaluate(
      async () => ((await (await fetch('/v2/follows?textItemId=welcome')).json()) as { follows: unknown[] }).follows,
    );
    expect(follows).toHaveLength(1);
    await checkAccessibility(commenter, 'inbox-03-following');

    await keyed(server)('PATCH', 'textItems', { updates: [{ developerId: 'welcome', status: 'FINAL' }] });
    await commenter.getByRole('link', { name: 'Inbox, 1 unread' }).click();
    await commenter.getByRole('link', { name: 'admin@localhost moved welcome from Draft to Final' }).waitFor();
    await checkAccessibility(commenter, 'inbox-04-status');
  });
});
