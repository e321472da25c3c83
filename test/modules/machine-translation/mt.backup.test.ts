import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace, ok, setupApp } from '../../helpers/app.js';
import { backupRoundTrip } from '../../helpers/backup.js';
import { tempSqlitePath, testDatabaseConfig } from '../../helpers/database.js';
import { startFakeProvider } from './fake-providers.js';
import { addProvider, mtConfig, silentLog, translationWorld } from './helpers.js';

// Written from a SQLite server, restored into this suite's database (PostgreSQL when DATABASE_URL
// names one); both servers share one COPYDESK_SECRET, as a moved installation keeps its secret.
const secret = randomBytes(32);
const source = await setupApp({
  ...mtConfig({ secret }),
  database: { kind: 'sqlite', path: tempSqlitePath('copydesk-mt-') },
});
const target = await setupApp({ ...mtConfig({ secret }), database: testDatabaseConfig() });
const fake = await startFakeProvider();
const dir = mkdtempSync(join(tmpdir(), 'copydesk-mt-files-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await fake.close();
});

describe('machine translation in a workspace backup', () => {
  it('round-trips providers, jobs and their texts; the credential stays sealed in the file', async () => {
    const ws = await createWorkspace(source, 'Translated');
    await translationWorld(ws, [
      { developerId: 'a', text: 'Hello {{name}}' },
      { developerId: 'b', text: 'Goodbye' },
    ]);
    await addProvider(ws, { kind: 'libretranslate', url: fake.url, apiKey: 'libre-key-5678' });
    await addProvider(ws, { kind: 'openai', url: fake.url });
    // Every answer drops placeholders: the text with one fails, the other lands.
    fake.always({ kind: 'dropPlaceholder' });
    const job = await ok(
      ws.api.post('translationJobs', { providerId: 'libretranslate', variantId: 'fr', landAs: 'wip' }),
    );
    await source.services.machineTranslation.worker(silentLog, { workspaceIds: [ws.id] }).runOnce();
    fake.always(null);
    const queued = await ok(
      ws.api.post('translationJobs', { providerId: 'openai', variantId: 'pl', projectId: 'web' }),
    );
    expect((await ws.api.get(`translationJobs/${job.id}`)).body).toMatchObject({ done: 1, failed: 1 });

    const reads = [
      'machineTranslation/providers',
      'translationJobs',
      `translationJobs/${job.id}`,
      `translationJobs/${queued.id}`,
      'history?kind=textItem',
    ];
    const { rows, copy } = await backupRoundTrip({ source, target, ws, dir, table: 'mtProviders', rows: 2, reads });
    const sealed = rows.find((line) => line.row?.developer_id === 'libretranslate')?.row?.api_key as string;
    expect(sealed).toMatch(/^aes-256-gcm:/);
    expect(sealed).not.toContain('libre-key');
    // The restored provider reads its credential with the shared secret.
    expect((await copy.get('machineTranslation/providers')).body[0].apiKey).toEqual({
      configured: true,
      lastFour: '5678',
      readable: true,
    });
  });
});
