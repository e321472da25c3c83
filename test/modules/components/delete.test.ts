import { describe, expect, it } from 'vitest';
import { now } from '../../../src/db/transaction.js';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createComponents, createVariables, createVariants, keys, list } from './helpers.js';

const ctx = await setupApp();
const { db } = ctx.database;

async function rowId(ws: Workspace, table: 'texts' | 'variants' | 'variables', developerId: string): Promise<number> {
  const column = table === 'variables' ? 'name' : 'developer_id';
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('workspace_id', '=', ws.id)
    .where(column as 'id', '=', developerId as never)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A linked instance of a component, written directly: text items are another module. */
async function insertInstance(ws: Workspace, developerId: string, componentId: number): Promise<number> {
  const at = now();
  const project = await db
    .insertInto('projects')
    .values({
      workspace_id: ws.id,
      kind: 'project',
      developer_id: `p-${developerId}`,
      name: 'P',
      base_id: null,
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('texts')
    .values({
      workspace_id: ws.id,
      kind: 'text_item',
      developer_id: developerId,
      project_id: project.id,
      component_id: componentId,
      text: 'stale copy',
      status: 'WIP',
      notes: 'instance notes',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('DELETE /v2/components', () => {
  it('deletes components with their variant values and plural records', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createComponents(ws, [
      {
        developerId: 'a',
        text: 'A',
        plurals: [{ form: 'one', text: 'A' }],
        variants: [{ variantId: 'fr', text: 'A fr' }],
      },
      { developerId: 'b', text: 'B' },
      { developerId: 'c', text: 'C' },
    ]);
    const aId = await rowId(ws, 'texts', 'a');
    const res = await ws.api.delete('components', { developerIds: ['c', 'a'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(keys(await list(ws, { variants: [{ id: 'all' }] }))).toEqual(['b']);
    const values = await db.selectFrom('text_variants').select('text_id').where('text_id', '=', aId).execute();
    expect(values).toEqual([]);
  });

  it('answers 404 naming an unknown id and deletes nothing; 400 for a repeated id or an empty list', async () => {
    const ws = await createWorkspace(ctx);
    await createComponents(ws, [{ developerId: 'keep', text: 'K' }]);
    const missing = await ws.api.delete('components', { developerIds: ['keep', 'nope'] });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Component with developer ID nope not found');
    const twice = await ws.api.delete('components', { developerIds: ['keep', 'keep'] });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("developerIds[1]: duplicate developer ID 'keep'");
    const empty = await ws.api.delete('components', { developerIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('developerIds must NOT have fewer than 1 items');
    expect(keys(await list(ws))).toEqual(['keep']);
  });

  it('detaches linked instances, which keep the component’s text, plurals, variant text and variables', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr', 'de']);
    await createVariables(ws, ['n', 'own']);
    await createComponents(
      ws,
      [
        {
          developerId: 'comp',
          text: '<b>{{n}}</b> item',
          variables: ['n'],
          plurals: [
            { form: 'one', text: '<b>{{n}}</b> item' },
            { form: 'other', text: '{{n}} items' },
          ],
          variants: [
            { variantId: 'fr', text: '{{n}} article', status: 'FINAL', notes: 'component fr notes' },
            { variantId: 'de', text: '{{n}} Artikel', status: 'REVIEW' },
          ],
        },
      ],
      { richText: 'html' },
    );
    const componentId = await rowId(ws, 'texts', 'comp');
    const instanceId = await insertInstance(ws, 'item-1', componentId);
    const [fr, de, own] = [
      await rowId(ws, 'variants', 'fr'),
      await rowId(ws, 'variants', 'de'),
      await rowId(ws, 'variables', 'own'),
    ];
    // The instance's own fr value: its status and notes stay, its text follows the component.
    await db
      .insertInto('text_variants')
      .values({ text_id: instanceId, variant_id: fr, text: 'old', status: 'WIP', notes: 'instance fr notes' })
      .execute();
    await db.insertInto('text_variables').values({ text_id: instanceId, variable_id: own }).execute();

    expect((await ws.api.delete('components', { developerIds: ['comp'] })).status).toBe(200);

    const item = await db.selectFrom('texts').selectAll().where('id', '=', instanceId).executeTakeFirstOrThrow();
    expect(item).toMatchObject({
      kind: 'text_item',
      component_id: null,
      text: '{{n}} item',
      rich_text: '<strong>{{n}}</strong> item',
      status: 'WIP',
      notes: 'instance notes',
    });
    expect(JSON.parse(item.plurals as string)).toEqual([
      { form: 'one', text: '{{n}} item', richText: '<strong>{{n}}</strong> item' },
      { form: 'other', text: '{{n}} items', richText: '{{n}} items' },
    ]);
    const values = await db
      .selectFrom('text_variants')
      .select(['variant_id', 'text', 'status', 'notes'])
      .where('text_id', '=', instanceId)
      .orderBy('variant_id')
      .execute();
    expect(values).toEqual([
      { variant_id: fr, text: '{{n}} article', status: 'WIP', notes: 'instance fr notes' },
      { variant_id: de, text: '{{n}} Artikel', status: 'REVIEW', notes: '' },
    ]);
    const variables = await db
      .selectFrom('text_variables')
      .select('variable_id')
      .where('text_id', '=', instanceId)
      .orderBy('variable_id')
      .execute();
    expect(variables.map((v) => v.variable_id)).toEqual([await rowId(ws, 'variables', 'n'), own]);
  });
});
