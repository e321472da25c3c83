import type { Selectable } from 'kysely';
import type { Executor, VariablesTable } from '../../db/schema.js';
import type { VariableType } from './variable-data.js';

/** A `variables` row: this module's own; other modules get a `Variable`. */
export type VariableRow = Selectable<VariablesTable>;

/** The workspace's variables in creation order (the id is assigned in insertion order). */
export async function listVariables(db: Executor, workspaceId: number): Promise<VariableRow[]> {
  return db.selectFrom('variables').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}

export async function findVariablesByName(
  db: Executor,
  workspaceId: number,
  names: readonly string[],
): Promise<VariableRow[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom('variables')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('name', 'in', [...new Set(names)])
    .orderBy('id')
    .execute();
}

export interface NewVariable {
  name: string;
  type: VariableType;
  /** JSON text. */
  data: string;
}

export async function insertVariables(
  db: Executor,
  workspaceId: number,
  variables: readonly NewVariable[],
  createdAt: string,
): Promise<number[]> {
  if (variables.length === 0) return [];
  const rows = await db
    .insertInto('variables')
    .values(variables.map((v) => ({ workspace_id: workspaceId, ...v, created_at: createdAt })))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function updateVariableData(db: Executor, workspaceId: number, id: number, data: string): Promise<void> {
  await db
    .updateTable('variables')
    .set({ data })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function deleteVariables(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('variables')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
}
