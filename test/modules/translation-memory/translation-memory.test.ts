import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../../src/config.js';
import { createWorkspace, ok, setupApp, type Workspace } from '../../helpers/app.js';
import { backupRoundTrip } from '../../helpers/backup.js';
import { onPostgres, scratchPostgres, tempSqlitePath, testDatabaseConfig } from '../../helpers/database.js';

const ctx = await setupApp();

/**
 * A fixed corpus. Against "Save changes" (13 trigrams: "  s", " sa", "sav", "ave", "ve ", "  c",
 * " ch", "cha", "han", "ang", "nge", "ges", "es "), worked out by hand:
 * - "Save changes?": the same trigrams (punctuation is not part of a word): 1.0, not identical: 99;
 * - "Changes saved": 14 trigrams, 12 shared: 12 / 15 = 80;
 * - "Save all changes": 17 trigrams, 13 shared: 13 / 17 = 76;
 * - "Save your changes now": 22 trigrams, 13 shared: 13 / 22 = 59;
 * - "Cancel", "Delete account": one or no trigram shared.
 */
async function seed(ws: Workspace): Promise<void> {
  await ok(
    ws.api.post('variants', {
      variants: [
        { name: 'French', developerId: 'fr', localeCode: 'fr-FR' },
        { name: 'French marketing', developerId: 'fr-marketing', localeCode: 'fr-FR' },
        { name: 'German', developerId: 'de', localeCode: 'de-DE' },
      ],
    }),
  );
  await ok(ws.api.post('projects', { projects: [{ name: 'Shop', developerId: 'shop' }] }));
  await ok(ws.api.post('componentFolders', { folders: [{ name: 'Buttons', developerId: 'buttons' }] }));
  await ok(
    ws.api.post('textItems', {
      projectId: 'shop',
      textItems: [
        {
          developerId: 'save',
          text: 'Save changes',
          variants: [{ variantId: 'fr', text: 'Enregistrer les modifications' }],
        },
        {
          developerId: 'save-copy',
          text: 'Save changes',
          variants: [{ variantId: 'fr', text: 'Enregistrer les modifications' }],
        },
        {
          developerId: 'save-all',
          text: 'Save all changes',
          variants: [{ variantId: 'fr', text: 'Enregistrer toutes les modifications' }],
        },
        {
          developerId: 'saved',
          text: 'Changes saved',
          variants: [
            { variantId: 'fr-marketing', text: 'Changements enregistrés' },
            { variantId: 'fr', text: 'Modifications enregistrées' },
          ],
        },
        {
          developerId: 'save-question',
          text: 'Save changes?',
          variants: [{ variantId: 'fr-marketing', text: 'Enregistrer les changements ?' }],
        },
        {
          developerId: 'save-now',
          text: 'Save your changes now',
          variants: [{ variantId: 'de', text: 'Speichern Sie jetzt Ihre Änderungen' }],
        },
        { developerId: 'cancel', text: 'Cancel', variants: [{ variantId: 'fr', text: 'Annuler' }] },
        {
          developerId: 'delete-account',
          text: 'Delete account',
          variants: [{ variantId: 'fr', text: 'Supprimer le compte' }],
        },
        { developerId: 'untranslated', text: 'Save changes' },
      ],
    }),
  );
  await ok(
    ws.api.post('components', {
      components: [
        {
          developerId: 'save-button',
          name: 'Save button',
          text: 'Save changes',
          folderId: 'buttons',
          variants: [{ variantId: 'fr', text: 'Enregistrer' }],
        },
      ],
    }),
  );
}

const memory = async (ws: Workspace, query: string) => {
  const res = await ws.api.get(`translationMemory?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const summary = (body: { matches: { id: string; score: number; text: string; variantId: string }[] }) =>
  body.matches.map((m) => `${m.id} ${m.score} ${m.variantId}: ${m.text}`);

describe('GET /v2/translationMemory', () => {
  it('ranks identical base texts first, then by similarity, in the variant or another of its locale', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const body = await memory(ws, `text=${encodeURIComponent('Save changes')}&variantId=fr`);
    expect(body.variantId).toBe('fr');
    expect(body.localeCode).toBe('fr-FR');
    expect(body.source).toBe('Save changes');
    // save-copy repeats save's base text and translation: answered once.
    expect(summary(body)).toEqual([
      'save 100 fr: Enregistrer les modifications',
      'save-button 100 fr: Enregistrer',
      'save-question 99 fr-marketing: Enregistrer les changements ?',
      'saved 80 fr: Modifications enregistrées',
      'save-all 76 fr: Enregistrer toutes les modifications',
    ]);
    expect(body.matches[0]).toEqual({
      score: 100,
      exact: true,
      source: 'Save changes',
      text: 'Enregistrer les modifications',
      richText: null,
      variantId: 'fr',
      status: 'NONE',
      kind: 'textItem',
      id: 'save',
      name: null,
      projectId: 'shop',
      folderId: null,
    });
    expect(body.matches[1]).toMatchObject({
      kind: 'component',
      name: 'Save button',
      folderId: 'buttons',
      projectId: null,
    });
    expect(body.matches[2].exact).toBe(false);

    // Another locale: only its own values.
    expect(summary(await memory(ws, 'text=Save%20changes&variantId=de'))).toEqual([
      'save-now 59 de: Speichern Sie jetzt Ihre Änderungen',
    ]);
    // A higher bar, and fewer.
    expect(summary(await memory(ws, 'text=Save%20changes&variantId=fr&minScore=90&limit=2'))).toEqual([
      'save 100 fr: Enregistrer les modifications',
      'save-button 100 fr: Enregistrer',
    ]);
    expect((await memory(ws, 'text=Zebra%20crossing&variantId=fr')).matches).toEqual([]);
  });

  it('takes a text item or a component by developer ID, leaving it out of its own matches', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const byItem = await memory(ws, 'textItemId=save&variantId=fr');
    expect(byItem.source).toBe('Save changes');
    expect(summary(byItem).slice(0, 2)).toEqual([
      'save-copy 100 fr: Enregistrer les modifications',
      'save-button 100 fr: Enregistrer',
    ]);
    const byComponent = await memory(ws, 'componentId=save-button&variantId=fr');
    expect(byComponent.matches.map((m: { id: string }) => m.id)).not.toContain('save-button');
    expect(byComponent.matches[0]).toMatchObject({ id: 'save', score: 100 });
  });

  it('follows every write: values added and changed, base texts changed, texts deleted', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    await ok(
      ws.api.patch('textItems', { variantId: 'fr', updates: [{ developerId: 'save-all', text: 'Tout enregistrer' }] }),
    );
    await ok(
      ws.api.patch('textItems', {
        variantId: 'fr',
        updates: [{ developerId: 'save-now', text: 'Enregistrer maintenant' }],
      }),
    );
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'cancel', text: 'Changes saved' }] }));
    await ok(ws.api.delete('textItems', { developerIds: ['saved'] }));
    await ok(ws.api.delete('components', { developerIds: ['save-button'] }));
    expect(summary(await memory(ws, 'text=Save%20changes&variantId=fr'))).toEqual([
      'save 100 fr: Enregistrer les modifications',
      'save-question 99 fr-marketing: Enregistrer les changements ?',
      'cancel 80 fr: Annuler',
      'save-all 76 fr: Tout enregistrer',
      'save-now 59 fr: Enregistrer maintenant',
    ]);
    // A deleted variant's values are no translation any more.
    await ok(ws.api.delete('variants', { developerIds: ['fr-marketing'] }));
    expect(summary(await memory(ws, 'text=Save%20changes&variantId=fr&minScore=90'))).toEqual([
      'save 100 fr: Enregistrer les modifications',
    ]);
  });

  it('answers a 400 naming the field, and a 404 for an unknown record', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const problem = async (query: string, status = 400) => {
      const res = await ws.api.get(`translationMemory?${query}`);
      expect(res.status, query).toBe(status);
      return res.body.message as string;
    };
    expect(await problem('text=Save')).toMatch(/variantId/);
    expect(await problem('variantId=fr')).toMatch(/^text: one of text, textItemId or componentId is required/);
    expect(await problem('variantId=fr&text=Save&textItemId=save')).toMatch(/^textItemId: give only one/);
    expect(await problem('variantId=nope&text=Save')).toBe('variantId: Variant with id nope not found');
    expect(await problem('variantId=fr&text=Save&minScore=10')).toMatch(/minScore/);
    expect(await problem('variantId=fr&text=Save&limit=0')).toMatch(/limit/);
    expect(await problem('variantId=fr&text=')).toMatch(/text/);
    expect(await problem('variantId=fr&textItemId=nope', 404)).toBe('Text item with developer ID nope not found');
    expect(await problem('variantId=fr&componentId=nope', 404)).toBe('Component with developer ID nope not found');
  });
});

// Written from a SQLite server, restored into this suite's database (PostgreSQL when DATABASE_URL
// names one): the memory is rebuilt by the restore, and both databases rank alike.
const source = await setupApp({ database: { kind: 'sqlite', path: tempSqlitePath('copydesk-memory-') } });
const target = await setupApp({ database: testDatabaseConfig() });
const dir = mkdtempSync(join(tmpdir(), 'copydesk-memory-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// On a database of its own: in the suite's shared one, the search indexers of the other files'
// servers work off the same queue and may index part of this test's backlog, so that no server
// counts all 5,000 texts it takes to ask for the vacuum.
const own = onPostgres() ? await scratchPostgres('copydesk_memory') : null;
afterAll(async () => own?.drop());
const alone = own ? await setupApp({ database: parseDatabaseUrl(own.url) }) : null;

describe.runIf(alone)('the translation memory on PostgreSQL', () => {
  it('is vacuumed once a backlog of texts is indexed, so lookups read the index alone', async () => {
    const ctx = alone!;
    const vacuums = async () =>
      Number(
        (
          await sql<{ n: string | number }>`select vacuum_count as n from pg_stat_user_tables
            where relname = 'translation_memory_bands'`.execute(ctx.database.db)
        ).rows[0]?.n ?? 0,
      );
    const before = await vacuums();
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }));
    await ok(ws.api.post('projects', { projects: [{ name: 'Big', developerId: 'big' }] }));
    for (let from = 0; from < 5000; from += 1000) {
      const textItems = Array.from({ length: 1000 }, (_, i) => ({
        developerId: `t-${from + i}`,
        text: `Order ${from + i} is on its way`,
        variants: [{ variantId: 'fr', text: `La commande ${from + i} est en route` }],
      }));
      await ok(ws.api.post('textItems', { projectId: 'big', textItems }));
    }
    // A lookup works the queue off first (5,000 texts and more): then the tables are tidied.
    const res = await ws.api.get(`translationMemory?variantId=fr&text=${encodeURIComponent('Order 42 is on its way')}`);
    expect(res.status).toBe(200);
    expect(res.body.matches.length).toBeGreaterThan(0);
    // PostgreSQL publishes a table's statistics some time after the vacuum: a backend flushes
    // them at most once a second, and an idle one within ten seconds; longer under load.
    await expect.poll(vacuums, { timeout: 60_000, interval: 250 }).toBeGreaterThan(before);
  }, 120_000);
});

describe('the translation memory in a workspace backup', () => {
  it('is rebuilt by a restore and answers the same', async () => {
    const ws = await createWorkspace(source, 'Translated');
    await seed(ws);
    const { copy } = await backupRoundTrip({
      source,
      target,
      ws,
      dir,
      table: 'texts',
      rows: 10,
      reads: [
        'translationMemory?text=Save%20changes&variantId=fr',
        'translationMemory?text=Save%20changes&variantId=de',
        'translationMemory?textItemId=saved&variantId=fr-marketing',
      ],
    });
    expect((await copy.get('translationMemory?text=Save%20changes&variantId=fr')).body.matches).toHaveLength(5);
  });
});
