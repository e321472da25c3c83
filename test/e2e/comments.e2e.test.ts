import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility } from './browser.js';
import { openReviewStage, type Stage } from './people.js';
import { keyed, type RealServer } from './server.js';

/**
 * Review in Chromium against a real server, by two people in sessions of their own: a commenter
 * reads a text with no edit control but suggesting, comments on a selected word and mentions the editor
 * (a mention of nobody is refused in place first); the editor finds the text by its badge, the
 * filter and the mentions page, opens the thread from its link, replies and resolves; the
 * commenter sees the thread resolved, then detached once the word changes. Results are read
 * back through the API; axe-core and a screenshot at each new state (`test-results/comments-*`).
 */
let server: RealServer;
let stage: Stage;

type ApiComment = {
  id: string;
  editedAt: string | null;
  threadId: string;
  body: string;
  mentions: string[];
  range: { start: number; end: number; quote: string } | null;
  author: string;
  resolved: boolean;
  resolvedBy: string | null;
};
const comments = async () =>
  (await keyed(server)<{ comments: ApiComment[] }>('GET', 'comments?textItemId=checkout')).comments;

/** Selects `word` in the open text's base value, as a writer's drag over it would. */
async function selectWord(page: Page, word: string): Promise<void> {
  await page
    .getByRole('form', { name: 'Base text' })
    .getByRole('textbox', { name: 'Base text text' })
    .evaluate((root, word) => {
      const doc = (globalThis as any).document;
      const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = String(node.textContent).indexOf(word);
        if (at === -1) continue;
        const range = doc.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        const selection = doc.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        return;
      }
      throw new Error(`no ${word} in the text`);
    }, word);
}

describe('comments in Chromium: a commenter and an editor', { timeout: 120_000 }, () => {
  let commenter: Page;
  let editor: Page;

  beforeAll(async () => {
    stage = await openReviewStage();
    server = stage.server;
  }, 120_000);

  afterAll(() => stage?.close());

  it('a commenter may only suggest: no save, no other edit control', async () => {
    commenter = await stage.signedIn('carl@example.com', 'commenter password');
    // What the app says is for the role: reviewing, seeing the order, not importing.
    await commenter.getByText(/^Open a text from the list to review it\./).waitFor();
    await commenter.getByRole('button', { name: 'Order of blocks and texts' }).click();
    await commenter
      .getByText(/^The order the project's blocks and texts are listed in; an editor or admin can/)
      .waitFor();
    expect(await commenter.getByText(/Drag a row/).count()).toBe(0);
    await checkAccessibility(commenter, 'comments-00-commenter-order');
    await commenter.getByRole('button', { name: 'Back to the texts' }).click();
    await commenter.goto('/import');
    await commenter
      .getByText('Your role (commenter) cannot import; an editor or admin can.', { exact: false })
      .waitFor();
    await checkAccessibility(commenter, 'comments-00-commenter-import');
    await commenter.goto('/');
    await commenter.getByRole('option', { name: /Pay later/ }).click();
    const history = commenter.getByRole('region', { name: /^History of / });
    await history.locator('.history-entry').first().waitFor();
    expect(await history.getByRole('button', { name: /^Restore|^Undo/ }).count()).toBe(0);
    // The wording is editable in suggesting mode (suggestions.e2e.test.ts sends one); nothing else is.
    const text = commenter.getByRole('textbox', { name: 'Base text text' });
    await expect.poll(() => text.getAttribute('contenteditable')).toBe('true');
    await commenter.getByRole('button', { name: 'Suggest change to base text' }).waitFor();
    expect(await commenter.getByRole('button', { name: 'Save base text' }).count()).toBe(0);
    expect(await commenter.getByRole('group', { name: 'Mode' }).count()).toBe(0);
    expect(await commenter.getByRole('button', { name: /^New / }).count()).toBe(0);
    expect(await commenter.getByRole('form', { name: 'Base text' }).getByLabel('Status').isDisabled()).toBe(true);
    await commenter.getByText('Suggesting: your change of wording goes to an editor for review.').waitFor();
    await commenter
      .getByRole('region', { name: /Comments/ })
      .getByText('No comments on this text yet.')
      .waitFor();
    await checkAccessibility(commenter, 'comments-01-commenter-reads');

    // A comment being written is an unsaved edit: opening another text asks first.
    const box = commenter.getByRole('textbox', { name: 'Comment on this text' });
    await box.fill('Half a thought');
    const asked = commenter.waitForEvent('dialog').then(async (dialog) => {
      const message = dialog.message();
      await dialog.dismiss();
      return message;
    });
    await commenter.getByRole('option', { name: /Welcome back/ }).click();
    expect(await asked).toContain('unsaved changes');
    expect(new URL(commenter.url()).pathname).toBe('/projects/shop/texts/checkout');
    await box.fill('');
  });

  it('comments on a selected word and mentions the editor; a mention of nobody is refused in place', async () => {
    await selectWord(commenter, 'later');
    await commenter.getByRole('button', { name: 'Comment on “later”' }).click();
    const box = commenter.getByRole('textbox', { name: 'Comment on “later”' });
    await expect.poll(() => box.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);

    // A mention of someone who is not in the workspace: the API's 400, under the form.
    await box.fill('Ask @nobody@example.com');
    await commenter.getByRole('button', { name: 'Comment', exact: true }).click();
    const refused = commenter
      .getByRole('form', { name: 'New comment' })
      .getByRole('alert')
      .filter({ hasText: 'nobody@example.com, who is not a user of this workspace' });
    await refused.waitFor();
    // Said as the form's own words, without the path into the request (comments[0].body).
    expect(await refused.textContent()).toBe('Mentions nobody@example.com, who is not a user of this workspace');

    // The mention from the list: everyone but the writer at first; typing after @ narrows it by
    // the start of an email or of a name, never by the domain; a click inserts the email.
    await box.fill('');
    await box.pressSequentially('Is “later” still true? @');
    const people = commenter.getByRole('listbox', { name: 'People to mention' });
    await people.getByRole('option', { name: /Eda Editor/ }).waitFor();
    expect(await people.getByRole('option', { name: /carl@example.com/ }).count()).toBe(0);
    await box.pressSequentially('exa');
    await people.waitFor({ state: 'detached' });
    for (let i = 0; i < 'exa'.length; i += 1) await box.press('Backspace');
    await box.pressSequentially('ed');
    await people.getByRole('option', { name: /Eda Editor/ }).waitFor();
    expect(await people.getByRole('option').count()).toBe(1);
    await checkAccessibility(commenter, 'comments-02-mention-list');
    await people.getByRole('option', { name: /Eda Editor/ }).click();
    await expect.poll(() => box.inputValue()).toBe('Is “later” still true? @eda@example.com ');
    await commenter.getByRole('button', { name: 'Comment', exact: true }).click();

    const thread = commenter.getByRole('listitem', { name: 'Thread by carl@example.com' });
    await thread.getByText('@eda@example.com').waitFor();
    // The passage is marked in the text while the thread is open.
    const mark = commenter.getByRole('textbox', { name: 'Base text text' }).locator('.comment-mark');
    await expect.poll(() => mark.textContent()).toBe('later');
    const [saved] = await comments();
    expect(saved).toMatchObject({
      author: 'carl@example.com',
      mentions: ['eda@example.com'],
      range: { start: 4, end: 9, quote: 'later' },
      resolved: false,
    });
    await thread.scrollIntoViewIfNeeded();
    await checkAccessibility(commenter, 'comments-03-thread');
  });

  it('the editor finds the thread by inbox, badge, filter and mentions, replies and resolves', async () => {
    editor = await stage.signedIn('eda@example.com', 'editor password');
    // The mention is the one unread notification of the editor's inbox, which opens the thread.
    await editor.getByRole('link', { name: 'Inbox, 1 unread' }).click();
    await editor
      .getByRole('list', { name: 'Notifications list' })
      .getByRole('link', { name: 'carl@example.com mentioned you on checkout' })
      .click();
    const [mentioned] = await comments();
    await expect.poll(() => new URL(editor.url()).searchParams.get('thread')).toBe(mentioned?.id);
    await editor.getByRole('listitem', { name: 'Thread by carl@example.com' }).waitFor();
    await editor.getByRole('link', { name: 'Inbox', exact: true }).waitFor();
    await editor.goto('/');
    await editor.getByRole('listbox', { name: 'Texts' }).waitFor();
    await editor
      .getByRole('option', { name: /Pay later/ })
      .getByText('1 open comment')
      .waitFor();
    expect(
      await editor
        .getByRole('option', { name: /Welcome back/ })
        .getByText(/open comment/)
        .count(),
    ).toBe(0);

    // The filter keeps only the text with an open thread, and says so in the URL.
    await editor.getByText('Filters', { exact: true }).click();
    await editor.getByLabel(/Has open comments \(1\)/).check();
    await expect.poll(() => new URL(editor.url()).search).toBe('?comments=open');
    await expect.poll(() => editor.getByRole('option').count()).toBe(1);

    // Mentions of me: the comment, linked to its text with the thread focused.
    await editor.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Mentions' }).click();
    await expect
      .poll(() => new URL(editor.url()).pathname + new URL(editor.url()).search)
      .toBe('/comments?mentions=me');
    const mention = editor.getByRole('listitem').filter({ hasText: 'Is “later” still true?' });
    await checkAccessibility(editor, 'comments-04-mentions');
    await mention.getByRole('link', { name: 'shop / checkout' }).click();
    const [first] = await comments();
    await expect.poll(() => new URL(editor.url()).search).toBe(`?thread=${first?.id}`);
    const thread = editor.getByRole('listitem', { name: 'Thread by carl@example.com' });
    // The open text's line under its title links down to its open threads.
    await editor.getByRole('link', { name: '1 open comment' }).waitFor();
    await expect.poll(() => thread.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);

    // An editor may not edit or delete someone else's comment (an admin may).
    expect(await thread.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await thread.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    // A mention picked from the keyboard: Arrow keys move in the list, Enter inserts.
    const reply = thread.getByRole('textbox', { name: 'Reply' });
    await reply.pressSequentially('Yes: it stays, thanks @c');
    await thread.getByRole('listbox', { name: 'People to mention' }).getByRole('option').first().waitFor();
    await reply.press('Enter');
    await expect.poll(() => reply.inputValue()).toBe('Yes: it stays, thanks @carl@example.com ');
    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread.getByText('Yes: it stays, thanks').waitFor();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await editor
      .getByRole('region', { name: /Comments/ })
      .getByText('(0 open, 1 resolved)')
      .waitFor();
    const after = await comments();
    expect(after.map((c) => [c.author, c.body, c.resolved, c.resolvedBy])).toEqual([
      ['carl@example.com', 'Is “later” still true? @eda@example.com', true, 'eda@example.com'],
      ['eda@example.com', 'Yes: it stays, thanks @carl@example.com', true, 'eda@example.com'],
    ]);
    // No open thread left: the badge and the passage's mark go.
    await expect.poll(() => editor.locator('.comment-mark').count()).toBe(0);
    await expect.poll(() => editor.getByText('1 open comment').count()).toBe(0);
    await editor
      .getByRole('region', { name: /Comments/ })
      .getByLabel(/Show resolved threads/)
      .check();
    await thread.getByRole('button', { name: 'Reopen' }).scrollIntoViewIfNeeded();
    await checkAccessibility(editor, 'comments-05-resolved');
  });

  it('the commenter sees it resolved, then detached once the word is changed', async () => {
    const region = commenter.getByRole('region', { name: /Comments/ });
    // The open text's threads follow the server without a reload.
    await region.getByText('(0 open, 1 resolved)').waitFor();
    await region.getByLabel(/Show resolved threads/).check();
    const thread = commenter.getByRole('listitem', { name: 'Thread by carl@example.com, resolved' });
    // By the name the workspace knows, as the comments are.
    await thread.getByText('Resolved by Eda Editor').waitFor();
    await thread.getByText('Yes: it stays, thanks').waitFor();
    await thread.getByRole('button', { name: 'Reopen' }).waitFor();

    // The commenter edits their own comment (marked edited), and deletes nothing of the editor's.
    const own = thread.getByRole('listitem').filter({ hasText: 'Carl Commenter' });
    await own.getByRole('button', { name: 'Edit' }).click();
    await own.getByRole('textbox', { name: 'Edit comment' }).fill('Is “later” still true, @eda@example.com?');
    await own.getByRole('button', { name: 'Save comment' }).click();
    await own.getByText('(edited)').waitFor();
    await own.getByText('Is “later” still true,').waitFor();
    expect(await thread.getByRole('listitem').filter({ hasText: 'Eda Editor' }).getByRole('button').count()).toBe(0);
    expect((await comments())[0]).toMatchObject({ body: 'Is “later” still true, @eda@example.com?' });

    await keyed(server)('PATCH', 'textItems', {
      updates: [{ developerId: 'checkout', text: 'Pay now with your card' }],
    });
    await thread.getByText(/detached/).waitFor();
    await thread.scrollIntoViewIfNeeded();
    await checkAccessibility(commenter, 'comments-06-detached');
  });

  it('the thread of a text deleted since shows in place on the Mentions page and in the inbox', async () => {
    await keyed(server)('DELETE', 'textItems', { developerIds: ['checkout'] });
    await editor.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Mentions' }).click();
    const mention = editor.getByRole('listitem').filter({ hasText: 'Is “later” still true,' });
    await mention.getByText('(deleted since)').waitFor();
    // No link to a text that is not there any more: the thread opens where it is.
    expect(await mention.getByRole('link', { name: 'shop / checkout' }).count()).toBe(0);
    await mention.getByRole('button', { name: 'Show the thread' }).click();
    const thread = mention.getByRole('region', { name: 'Thread of a deleted text' });
    await thread.getByText('Yes: it stays, thanks').waitFor();
    await thread.getByText(/takes no more replies\. Resolved by Eda Editor\./).waitFor();
    expect(await thread.getByRole('button').count()).toBe(0);
    await checkAccessibility(editor, 'comments-07-deleted-thread');

    await editor.goto('/inbox');
    const notice = editor
      .getByRole('listitem')
      .filter({ hasText: /mentioned you/ })
      .first();
    await notice.getByText('(deleted since)').waitFor();
    expect(await notice.getByRole('link').count()).toBe(0);
    await notice.getByRole('button', { name: 'Show the thread' }).click();
    await notice.getByRole('region', { name: 'Thread of a deleted text' }).getByText('Yes: it stays, thanks').waitFor();
    await checkAccessibility(editor, 'comments-08-inbox-deleted-thread');
  });
});
