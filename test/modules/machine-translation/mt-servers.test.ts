import { afterAll, expect, it } from 'vitest';
import { anotherServer, createWorkspace, ok, setupApp } from '../../helpers/app.js';
import { startFakeProvider } from './fake-providers.js';
import { addProvider, mtConfig, silentLog, translationWorld } from './helpers.js';

/**
 * Two servers on one database (PostgreSQL on a PostgreSQL run) whose job workers look for work at
 * the same moment: one takes the job, the other finds none, and each text is translated and
 * written once.
 */
const ctx = await setupApp(mtConfig());
const other = await anotherServer(ctx);
const fake = await startFakeProvider();
afterAll(() => fake.close());

it('a job runs on one server only, and each text is translated once', { timeout: 60_000 }, async () => {
  const ws = await createWorkspace(ctx);
  const texts = Array.from({ length: 8 }, (_, i) => ({ developerId: `t${i}`, text: `Text number ${i}` }));
  await translationWorld(ws, texts);
  await addProvider(ws, { kind: 'libretranslate', url: fake.url, concurrency: 2 });
  const job = await ok(
    ws.api.post('translationJobs', { providerId: 'libretranslate', variantId: 'fr', landAs: 'wip' }),
  );
  const from = fake.requests.length;
  const workers = [ctx.services, other.services].map((services) =>
    services.machineTranslation.worker(silentLog, { workspaceIds: [ws.id] }),
  );
  const handled = await Promise.all(workers.map((worker) => worker.runOnce()));
  expect([...handled].sort()).toEqual([0, 8]);
  // One request per text: none was translated by both.
  const asked = fake.requests.slice(from).map((r) => r.body.q);
  expect(asked.sort()).toEqual(texts.map((t) => t.text).sort());
  expect((await ws.api.get(`translationJobs/${job.id}`)).body).toMatchObject({ state: 'done', done: 8, pending: 0 });
  const history = await ws.api.get('history?kind=textItem&limit=100');
  const translated = history.body.changes.filter((c: any) => c.variantId === 'fr' && c.fields.machineTranslation);
  expect(translated.map((c: any) => c.developerId).sort()).toEqual(texts.map((t) => t.developerId).sort());
  expect(await Promise.all(workers.map((worker) => worker.runOnce()))).toEqual([0, 0]);
});
