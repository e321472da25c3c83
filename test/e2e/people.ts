import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium, requireBrowserAndApp, scratchDatabase } from './browser.js';
import { keyed, type RealServer, startServer } from './server.js';

/**
 * A real server on a scratch database and Chromium, for a browser test file's beforeAll; its
 * people invited through the API and signed in, each in a browser context of their own.
 * `close` (the file's afterAll) closes those contexts, Chromium, the server and the database.
 */
export interface Stage {
  server: RealServer;
  browser: Browser;
  /** Invites `email` with `role` and sets their password from the invitation's link. */
  person: (email: string, name: string, role: string, password: string) => Promise<void>;
  /** A page of a new browser context, signed in as `email`, showing the list of texts. */
  signedIn: (email: string, password: string) => Promise<Page>;
  close: () => Promise<void>;
}

/**
 * Checks Chromium and web/dist, starts the server and launches Chromium; what started is stopped
 * again if a later step fails.
 */
export async function openStage(extraEnv: Record<string, string> = {}): Promise<Stage> {
  requireBrowserAndApp();
  const database = await scratchDatabase();
  const contexts: BrowserContext[] = [];
  let server: RealServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    await database.drop();
  };
  try {
    server = await startServer(database.url, extraEnv);
    browser = await launchChromium();
  } catch (error) {
    await close();
    throw error;
  }
  const ready = { server, browser };
  return {
    ...ready,
    close,
    person: async (email, name, role, password) => {
      const { passwordLink } = await keyed(ready.server)<{ passwordLink: string }>('POST', 'users', {
        email,
        name,
        role,
      });
      const token = new URL(passwordLink).hash.slice('#token='.length);
      const res = await fetch(`${ready.server.base}/v2/session/password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password }),
      });
      expect(res.ok).toBe(true);
    },
    signedIn: async (email, password) => {
      // bypassCSP: only so that axe-core can be injected; the app itself runs under its policy.
      const context = await ready.browser.newContext({
        baseURL: ready.server.base,
        viewport: { width: 1400, height: 900 },
        bypassCSP: true,
      });
      context.setDefaultTimeout(10_000);
      contexts.push(context);
      const page = await context.newPage();
      await page.goto('/');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('listbox', { name: 'Texts' }).waitFor();
      return page;
    },
  };
}

/**
 * The stage of the review suites: a project `shop` with the texts `checkout` ("Pay later with
 * your card"), `welcome` ("Welcome back") and `moreTexts`; eda@example.com an editor (password
 * "editor password") and carl@example.com a commenter ("commenter password").
 */
export async function openReviewStage(
  moreTexts: { developerId: string; text: string }[] = [],
  extraEnv: Record<string, string> = {},
): Promise<Stage> {
  const stage = await openStage(extraEnv);
  try {
    const api = keyed(stage.server);
    await api('POST', 'projects', { projects: [{ name: 'Shop', developerId: 'shop' }] });
    await api('POST', 'textItems', {
      projectId: 'shop',
      textItems: [
        { developerId: 'checkout', text: 'Pay later with your card' },
        { developerId: 'welcome', text: 'Welcome back' },
        ...moreTexts,
      ],
    });
    await stage.person('eda@example.com', 'Eda Editor', 'editor', 'editor password');
    await stage.person('carl@example.com', 'Carl Commenter', 'commenter', 'commenter password');
  } catch (error) {
    await stage.close();
    throw error;
  }
  return stage;
}
