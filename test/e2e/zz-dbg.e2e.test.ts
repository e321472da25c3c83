import { it } from 'vitest';
import { launchChromium, scratchDatabase } from '/work/wt/web-shell/test/e2e/browser.js';
import { startServer } from '/work/wt/web-shell/test/e2e/server.js';
it('dbg', async () => {
  const db = await scratchDatabase();
  const server = await startServer(db.url);
  const browser = await launchChromium();
  const page = await browser.newPage({ baseURL: server.base });
  page.on('console', (m) => console.log('CONSOLE', m.text()));
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  await page.goto(server.passwordLink);
  await page.getByLabel(/New password/).fill('dbg password 123');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.waitForTimeout(3000);
  console.log('URL', page.url());
  console.log((await page.content()).slice(0, 3000));
  await browser.close();
  await server.stop();
}, 60000);
