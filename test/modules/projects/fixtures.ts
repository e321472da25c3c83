import { now } from '../../../src/db/transaction.js';
import type { TestContext, Workspace } from '../../helpers/app.js';

/**
 * Text items and components written straight into `texts`: the text items module is built on
 * top of this one, so these tests do not go through its endpoints.
 */
export interface ItemSpec {
  developerId: string;
  /** Developer ID of the project or base that holds the item. */
  container: string;
  block?: string;
  position?: number;
  /** Developer ID of the base text item it derives from. */
  derivesFrom?: string;
}

export async function rowIdOf(ctx: TestContext, ws: Workspace, developerId: string, kind = 'text_item') {
  const row = await ctx.database.db
    .selectFrom('texts')
    .select('id')
    .where('workspace_id', '=', ws.id)
    .where('kind', '=', kind as 'text_item')
    .where('developer_id', '=', developerId)
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertItem(ctx: TestContext, ws: Workspace, spec: ItemSpec): Promise<number> {
  const db = ctx.database.db;
  const container = (await ctx.services.projects.resolveContainers(db, ws.id, [spec.container])).get(spec.container);
  if (!container) throw new Error(`no container ${spec.container}`);
  const block = spec.block ? await ctx.services.blocks.resolveBlock(db, ws.id, container.id, spec.block) : null;
  if (spec.block && !block) throw new Error(`no block ${spec.block}`);
  const at = now();
  const row = await db
    .insertInto('texts')
    .values({
      workspace_id: ws.id,
      kind: 'text_item',
      developer_id: spec.developerId,
      project_id: container.id,
      block_id: block?.id ?? null,
      base_text_item_id: spec.derivesFrom ? await rowIdOf(ctx, ws, spec.derivesFrom) : null,
      position: spec.position ?? 0,
      text: `Text of ${spec.developerId}`,
      status: 'NONE',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertComponent(ctx: TestContext, ws: Workspace, developerId: string): Promise<number> {
  const at = now();
  const row = await ctx.database.db
    .insertInto('texts')
    .values({
      workspace_id: ws.id,
      kind: 'component',
      developer_id: developerId,
      name: developerId,
      text: 'Component text',
      status: 'NONE',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface ItemState {
  id: string;
  kind: string;
  container: string | null;
  block: string | null;
  derivesFrom: string | null;
  position: number;
}

/** Every text of the workspace as developer IDs, sorted by id: what a cascade left behind. */
export async function textsOf(ctx: TestContext, ws: Workspace): Promise<ItemState[]> {
  const db = ctx.database.db;
  const rows = await db.selectFrom('texts').selectAll().where('workspace_id', '=', ws.id).execute();
  const containers = await ctx.services.projects.projectDeveloperIds(db, ws.id);
  const blocks = await ctx.services.blocks.loadBlocks(db, ws.id);
  const texts = new Map(rows.map((r) => [r.id, r.developer_id]));
  return rows
    .map((r) => ({
      id: r.developer_id,
      kind: r.kind,
      container: r.project_id === null ? null : (containers.get(r.project_id) ?? `missing ${r.project_id}`),
      block: r.block_id === null ? null : (blocks.get(r.block_id)?.developerId ?? `missing ${r.block_id}`),
      derivesFrom: r.base_text_item_id === null ? null : (texts.get(r.base_text_item_id) ?? 'missing'),
      position: r.position,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

export async function countRows(ctx: TestContext, table: 'blocks' | 'text_variants' | 'projects', workspaceId: number) {
  const db = ctx.database.db;
  if (table === 'text_variants') {
    const row = await db
      .selectFrom('text_variants')
      .innerJoin('texts', 'texts.id', 'text_variants.text_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('texts.workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
