import { describe, expect, it } from 'vitest';
import * as compactChangeFields from '../../src/db/migrations/2026_11_25_800_compact_change_fields.js';
import { createWorkspace, setupApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/database.js';

// Migrating down and up again rewrites every change of the database: on PostgreSQL the test
// files share one database, so this runs on each test file's own SQLite file only.
describe.skipIf(onPostgres())('the migration to compact change fields', async () => {
  const ctx = await setupApp();

  it('rewrites changes recorded before it, and history reads them as it did', async () => {
    const ws = await createWorkspace(ctx);
    const created = await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] });
    expect(created.status).toBe(201);
    const updated = await ws.api.patch('variants', { updates: [{ developerId: 'fr', name: 'Français' }] });
    expect(updated.status).toBe(200);
    const before = (await ws.api.get('history?kind=variant')).body.changes;
    expect(before.map((c: { action: string }) => c.action)).toEqual(['updated', 'created']);
    expect(before[0].fields.name).toEqual({ before: 'French', after: 'Français' });
    expect(before[1].fields.name).toEqual({ before: null, after: 'French' });

    const stored = async () =>
      (
        await ctx.database.db
          .selectFrom('changes')
          .select('fields')
          .where('workspace_id', '=', ws.id)
          .where('kind', '=', 'variant')
          .orderBy('id')
          .execute()
      ).map((row) => JSON.parse(row.fields));
    // As the change log stored fields before the migration: each field's before and after.
    await compactChangeFields.down(ctx.database.db);
    const [oldCreate, oldUpdate] = await stored();
    expect(oldCreate.name).toEqual({ before: null, after: 'French' });
    expect(oldUpdate.name).toEqual({ before: 'French', after: 'Français' });

    await compactChangeFields.up(ctx.database.db);
    const [create, update] = await stored();
    expect(create[0]).toBeNull();
    expect(create[1].name).toBe('French');
    expect(update).toEqual([{ name: 'French' }, { name: 'Français' }]);
    expect((await ws.api.get('history?kind=variant')).body.changes).toEqual(before);
  });
});
