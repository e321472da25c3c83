import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { loadConfig, parseDatabaseUrl } from '../../../src/config.js';
import { openDatabase } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { createServices } from '../../../src/services.js';
import { migratedSqlitePath, onPostgres, scratchPostgres } from '../../helpers/database.js';
import { startServerProcess } from '../../helpers/server-process.js';
import { waitFor } from '../../helpers/wait.js';
import { startFakeProvider } from './fake-providers.js';
import { silentLog } from './helpers.js';

/**
 * A real `copydesk serve` killed with SIGKILL in the middle of a translation job: the texts it
 * landed stay landed, the one under way is not, and another worker takes the job once the dead
 * server's lease has run out and translates the rest, each text once.
 */
// A database of its own: the server's worker takes every job of its database.
const scratch = onPostgres() ? await scratchPostgres() : { url: migratedSqlitePath(), drop: async () => {} };
const handle = openDatabase(parseDatabaseUrl(scratch.url));
await migrateToLatest(handle.db);
const secret = randomBytes(32);
const services = createServices(handle.db, {
  machineTranslation: { ...loadConfig({}).machineTranslation, secret, allowPrivateNetworks: true },
});
const fake = await startFakeProvider();
afterAll(async () => {
  await fake.close();
  // The texts this file's worker wrote are queued for the search index: no pass after the close.
  await services.searchIndex.stop();
  await handle.close();
  await scratch.drop();
});

it('a job whose server is killed resumes on another after the lease, and no text is written twice', {
  timeout: 90_000,
}, async () => {
  const { id } = await services.accounts.createWorkspace(`mt kill -9 ${process.pid}`);
  const admin = `admin-${process.pid}@example.com`;
  await services.accounts.createUser({ workspaceId: id, email: admin, role: 'admin' });
  const { key } = await services.accounts.createKey({ workspaceId: id, email: admin });
  const server = await startServerProcess({
    DATABASE_URL: scratch.url,
    COPYDESK_SECRET: secret.toString('hex'),
    MT_ALLOW_PRIVATE_NETWORKS: 'true',
    MT_POLL_MS: '20',
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await server.call(key, method, path, body === undefined ? {} : { body });
    expect(res.status, res.text).toBeLessThan(300);
    return JSON.parse(res.text);
  };
  await call('POST', '/v2/variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
  await call('POST', '/v2/projects', { projects: [{ name: 'Web', developerId: 'web' }] });
  const texts = Array.from({ length: 5 }, (_, i) => ({ developerId: `t${i}`, text: `Text number ${i}` }));
  await call('POST', '/v2/textItems', { projectId: 'web', textItems: texts });
  await call('POST', '/v2/machineTranslation/providers', {
    name: 'Libre',
    developerId: 'libre',
    kind: 'libretranslate',
    url: fake.url,
    privateNetwork: true,
    concurrency: 1,
    requestsPerMinute: 6000,
  });
  // Two texts translate; the third request is never answered: the server dies waiting for it.
  fake.next({ kind: 'ok' }, { kind: 'ok' }, { kind: 'hang' });
  const job = await call('POST', '/v2/translationJobs', { providerId: 'libre', variantId: 'fr', landAs: 'wip' });
  await waitFor(() => fake.requests.length >= 3, 'the server to send the third text', { timeoutMs: 30_000 });
  const at = Date.now();
  process.kill(server.pid, 'SIGKILL');
  await waitFor(() => {
    try {
      process.kill(server.pid, 0);
      return false;
    } catch {
      return true;
    }
  }, 'the server to be gone');
  const progress = await services.machineTranslation.jobs.get(id, job.id);
  expect(progress).toMatchObject({ state: 'running', done: 2, pending: 3 });

  const worker = (now: number) => services.machineTranslation.worker(silentLog, { clock: { now: () => now } });
  // Still the dead server's (its lease is a minute) ...
  expect(await worker(at + 30_000).runOnce()).toBe(0);
  // ... and taken over once the lease has run out: the three texts left, the hung one again.
  expect(await worker(at + 61_000).runOnce()).toBe(3);
  expect(await services.machineTranslation.jobs.get(id, job.id)).toMatchObject({ state: 'done', done: 5, pending: 0 });
  const asked = fake.requests.map((r) => r.body.q);
  expect(asked.filter((q) => q === asked[2])).toHaveLength(2);
  expect(asked).toHaveLength(6);
  // Each text has exactly one machine-translated value in history.
  const history = await services.history.list(id, { kind: 'textItem', limit: 100 } as never);
  const translated = (history as any).changes.filter((c: any) => c.variantId === 'fr' && c.fields.machineTranslation);
  expect(translated.map((c: any) => c.developerId).sort()).toEqual(texts.map((t) => t.developerId));
});
