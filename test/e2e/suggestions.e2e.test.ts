import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility, screenshot } from './browser.js';
import { openReviewStage, type Stage } from './people.js';
import { keyed, type RealServer } from './server.js';

/**
 * Suggestions in Chromium against a real server, by a commenter and an editor in sessions of
 * their own: the commenter's editor is in suggesting mode, so their change is sent as a
 * suggestion with a note; the editor finds it by its badge, reads the word diff and accepts it
 * (the text and its history follow); a suggestion made stale by an edit shows both diffs and is
 * applied with "Apply anyway" from its link; the editor switches to suggesting, rejects with a
 * note and withdraws their own; the commenter chooses a daily digest in the settings. Results
 * are read back through the API; axe-core and a screenshot at each new state
 * (`test-results/suggestions-*`).
 */
let server: RealServer;
let stage: Stage;

type ApiSuggestion = {
  id: string;
  status: string;
  author: string;
  note: string | null;
  decidedBy: string | null;
  decisionNote: string | null;
  proposed: { text: string };
};
const suggestionsOf = async (textItemId: string) =>
  (await keyed(server)<{ suggestions: ApiSuggestion[] }>('GET', `suggestions?textItemId=${textItemId}`)).suggestions;
const textOf = async (developerId: string) => {
  const items = await keyed(server)<{ id: string; text: string; variantId: string | null }[]>('GET', 'textItems');
  return items.find((t) => t.id === developerId && t.variantId === null)?.text;
};

/** Replaces the whole wording of the open text's base value, as a writer would by typing over it. */
async function retype(page: Page, words: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Base text text' }).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(words);
}

/** Sends the base text's change as a suggestion with `note`, and waits for the form to say so. */
async function suggest(page: Page, note: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Base text' });
  await form.getByLabel('Note for the reviewer (optional)').fill(note);
  await form.getByRole('button', { name: 'Suggest change to base text' }).click();
  await form.getByRole('status').filter({ hasText: 'Suggestion sent' }).waitFor();
}

/** A screenshot of one part of the page: the editor pane scrolls on its own, beyond a page's screenshot. */
const shot = (part: Locator, name: string) => screenshot(part, name);

const joined = async (item: Locator, tag: 'ins' | 'del') =>
  (await item.locator(`.diff ${tag}`).allTextContents()).join('|').replace(/\[(added|removed): |\]/g, '');

describe('suggestions in Chromium: a commenter and an editor', { timeout: 120_000 }, () => {
  let commenter: Page;
  let editor: Page;

  beforeAll(async () => {
    stage = await openReviewStage([{ developerId: 'promo', text: 'Free shipping on all orders' }]);
    server = stage.server;
  }, 120_000);

  afterAll(() => stage?.close());

  it("a commenter's change is sent as a suggestion with a note", async () => {
    commenter = await stage.signedIn('carl@example.com', 'commenter password');
    await commenter.getByRole('option', { name: /Pay later/ }).click();
    // No mode to choose: suggesting is a commenter's only way to write.
    expect(await commenter.getByRole('group', { name: 'Mode' }).count()).toBe(0);
    await commenter.getByText('Suggesting: your change of wording goes to an editor for review.').waitFor();
    await retype(commenter, 'Pay in three parts with your card');
    await suggest(commenter, 'Clearer about what later means');

    // The form reads the text as it is again; the suggestion is listed beside it, the author's to withdraw.
    const text = commenter.getByRole('textbox', { name: 'Base text text' });
    await expect.poll(() => text.textContent()).toBe('Pay later with your card');
    const item = commenter.getByRole('listitem', { name: 'Suggestion by carl@example.com for Base text' });
    await item.getByText('“Clearer about what later means”').waitFor();
    await item.getByRole('button', { name: 'Withdraw' }).waitFor();
    expect(await item.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    const [made] = await suggestionsOf('checkout');
    expect(made).toMatchObject({
      status: 'open',
      author: 'carl@example.com',
      note: 'Clearer about what later means',
      proposed: { text: 'Pay in three parts with your card' },
    });
    await item.scrollIntoViewIfNeeded();
    await checkAccessibility(commenter, 'suggestions-01-sent');
  });

  it('the editor finds it by its badge, reads the diff and accepts it', async () => {
    editor = await stage.signedIn('eda@example.com', 'editor password');
    const row = editor.getByRole('option', { name: /Pay later/ });
    await row.getByText('1 suggestion').waitFor();
    expect(
      await editor
        .getByRole('option', { name: /Welcome back/ })
        .getByText(/suggestion/)
        .count(),
    ).toBe(0);
    await row.click();
    await editor.getByRole('link', { name: '1 open suggestion' }).waitFor();
    const item = editor.getByRole('listitem', { name: 'Suggestion by carl@example.com for Base text' });
    await item.getByText('“Clearer about what later means”').waitFor();
    expect(await joined(item, 'del')).toContain('later');
    expect(await joined(item, 'ins')).toContain('three parts');
    await item.getByText('3 words added, 1 removed').waitFor();
    expect(await item.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
    await item.scrollIntoViewIfNeeded();
    await checkAccessibility(editor, 'suggestions-02-review');

    await item.getByRole('button', { name: 'Accept' }).click();
    const text = editor.getByRole('textbox', { name: 'Base text text' });
    await expect.poll(() => text.textContent()).toBe('Pay in three parts with your card');
    await editor
      .getByRole('region', { name: /Suggestions/ })
      .getByText('No open suggestions on this text.')
      .waitFor();
    await expect.poll(() => row.getByText(/suggestion/).count()).toBe(0);
    expect(await textOf('checkout')).toBe('Pay in three parts with your card');
    expect((await suggestionsOf('checkout'))[0]).toMatchObject({ status: 'accepted', decidedBy: 'eda@example.com' });

    // The text's history has the change, as the editor's (they decided it).
    await editor.reload();
    const history = editor.getByRole('region', { name: 'History of text item checkout' });
    await history.getByText('eda@example.com').first().waitFor();
    await history.scrollIntoViewIfNeeded();
    await history.getByText('three parts').first().waitFor();
    await shot(history, 'suggestions-03-history');
    await checkAccessibility(editor, 'suggestions-03-accepted');
  });

  it('a suggestion made stale by an edit shows both diffs and is applied anyway from its link', async () => {
    await commenter.getByRole('option', { name: /Welcome back/ }).click();
    await commenter.getByRole('textbox', { name: 'Base text text' }).click();
    await commenter.keyboard.press('End');
    await commenter.keyboard.type(', friend');
    await suggest(commenter, 'Warmer');
    const [made] = await suggestionsOf('welcome');
    if (!made) throw new Error('no suggestion on welcome');
    await keyed(server)('PATCH', 'textItems', { updates: [{ developerId: 'welcome', text: 'Welcome back!' }] });

    await editor.goto(`/projects/shop/texts/welcome?suggestion=${made.id}`);
    const item = editor.getByRole('listitem', { name: 'Suggestion by carl@example.com for Base text, stale' });
    await item.getByText('The text changed since this was suggested.').waitFor();
    // The link focuses the suggestion.
    await expect
      .poll(() => editor.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label')))
      .toBe('Suggestion by carl@example.com for Base text, stale');
    // Both diffs: its own change against its base, and what changed in the text since.
    expect(await joined(item, 'ins')).toBe(', friend|!');
    expect(await item.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    await item.getByRole('button', { name: 'Apply anyway' }).scrollIntoViewIfNeeded();
    await checkAccessibility(editor, 'suggestions-04-stale');
    await shot(item, 'suggestions-04-stale-item');

    await item.getByRole('button', { name: 'Apply anyway' }).click();
    const text = editor.getByRole('textbox', { name: 'Base text text' });
    await expect.poll(() => text.textContent()).toBe('Welcome back, friend');
    expect(await textOf('welcome')).toBe('Welcome back, friend');
    expect((await suggestionsOf('welcome'))[0]).toMatchObject({ status: 'accepted' });
  });

  it('the editor switches to suggesting, rejects with a note and withdraws their own', async () => {
    await commenter.getByRole('option', { name: /Free shipping/ }).click();
    // Rich text: the word made bold shows in the formatted versions beside the plain diff.
    await retype(commenter, 'Free shipping ');
    await commenter.keyboard.press('ControlOrMeta+b');
    await commenter.keyboard.type('today');
    await commenter.keyboard.press('ControlOrMeta+b');
    await suggest(commenter, 'Only today');

    await editor.getByRole('option', { name: /Free shipping/ }).click();
    const mode = editor.getByRole('group', { name: 'Mode' });
    await mode.getByRole('button', { name: 'Suggesting' }).click();
    await expect.poll(() => mode.getByRole('button', { name: 'Suggesting' }).getAttribute('aria-pressed')).toBe('true');
    expect(await editor.getByRole('button', { name: 'Save base text' }).count()).toBe(0);
    await retype(editor, 'Free shipping on every order');
    await suggest(editor, 'Every reads better');
    const own = editor.getByRole('listitem', { name: 'Suggestion by eda@example.com for Base text' });
    await own.getByRole('button', { name: 'Withdraw' }).waitFor();
    await checkAccessibility(editor, 'suggestions-05-suggesting');

    const theirs = editor.getByRole('listitem', { name: 'Suggestion by carl@example.com for Base text' });
    const formatted = theirs.getByRole('textbox', { name: 'Suggested, formatted' });
    await expect.poll(() => formatted.locator('strong').textContent()).toBe('today');
    expect(await theirs.getByRole('textbox', { name: 'Before, formatted' }).textContent()).toBe(
      'Free shipping on all orders',
    );
    expect(await joined(theirs, 'ins')).toBe('today');
    await theirs.getByRole('button', { name: 'Reject…' }).click();
    const reject = theirs.getByRole('form', { name: 'Reject the suggestion by carl@example.com' });
    await reject.getByLabel(/Why/).fill('Shipping is free every day');
    await checkAccessibility(editor, 'suggestions-06-reject');
    await shot(editor.getByRole('region', { name: /Suggestions/ }), 'suggestions-06-reject-panel');
    await reject.getByRole('button', { name: 'Reject suggestion' }).click();
    await expect.poll(() => theirs.count()).toBe(0);
    await own.getByRole('button', { name: 'Withdraw' }).click();
    await editor
      .getByRole('region', { name: /Suggestions/ })
      .getByText('No open suggestions on this text.')
      .waitFor();
    const decided = await suggestionsOf('promo');
    expect(decided.map((s) => [s.author, s.status, s.decisionNote])).toEqual([
      ['carl@example.com', 'rejected', 'Shipping is free every day'],
      ['eda@example.com', 'withdrawn', null],
    ]);
    expect(await textOf('promo')).toBe('Free shipping on all orders');

    // Back to editing: the save is there again, and the choice is kept for the next text.
    await mode.getByRole('button', { name: 'Editing' }).click();
    await editor.getByRole('button', { name: 'Save base text' }).waitFor();
  });

  it('anyone chooses their email in the settings: the commenter picks a daily digest', async () => {
    await commenter.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
    const section = commenter.getByRole('region', { name: 'Email notifications' });
    // The test server has no SMTP_URL: the section says so.
    await section.getByText('This server is not configured to send email').waitFor();
    await expect.poll(() => section.getByLabel(/Instant/).isChecked()).toBe(true);
    await section.getByLabel(/Daily digest/).check();
    await section.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const read = await commenter.evaluate(async () => {
      const res = await fetch('/v2/users/me/notifications');
      return res.json();
    });
    expect(read).toMatchObject({ email: 'daily', smtpConfigured: false });
    await section.scrollIntoViewIfNeeded();
    await checkAccessibility(commenter, 'suggestions-07-notifications');
  });
});
