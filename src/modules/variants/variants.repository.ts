import type { Insertable, Selectable } from 'kysely';
import type { Executor, VariantsTable } from '../../db/schema.js';

/** A `variants` row: this module's own; other modules get a `Variant` (variants.types.ts). */
export type VariantRow = Selectable<VariantsTable>;

export type NewVariant = Omit<Insertable<VariantsTable>, 'id' | 'workspace_id' | 'created_at'>;

/** Every variant of the workspace, in creation order. */
export async function listVariants(db: Executor, workspaceId: number): Promise<VariantRow[]> {
  return db.selectFrom('variants').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}

export async function findVariantsByDeveloperIds(
  db: Executor,
  workspaceId: number,
  developerIds: readonly string[],
): Promise<VariantRow[]> {
  if (developerIds.length === 0) return [];
  return db
    .selectFrom('variants')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('developer_id', 'in', developerIds)
    .execute();
}

export async function insertVariants(
  db: Executor,
  workspaceId: number,
  variants: readonly NewVariant[],
  createdAt: string,
): Promise<VariantRow[]> {
  if (variants.length === 0) return [];
  return db
    .insertInto('variants')
    .values(variants.map((v) => ({ ...v, workspace_id: workspaceId, created_at: createdAt })))
    .returningAll()
    .execute();
}

export type VariantChanges = Partial<Pick<VariantRow, 'developer_id' | 'name' | 'description' | 'locale_code'>>;

export async function updateVariant(db: Executor, workspaceId: number, id: number, changes: VariantChanges) {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('variants').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/**
 * Style guides scoped to them lose the scope, by the foreign key. Callers remove the variants'
 * values from texts first, through the texts module, so that the change log sees every one.
 */
export async function deleteVariants(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('variants').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
}
