import type { Executor, VariableRow } from '../../db/schema.js';
import type { VariableType } from './variable-data.js';

export type { VariableRow };

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
): Promise<void> {
  if (variables.length === 0) return;
  await db
    .insertInto('variables')
    .values(variables.map((v) => ({ workspace_id: workspaceId, ...v, created_at: createdAt })))
    .execute();
}

export async function updateVariableData(db: Executor, workspaceId: number, id: number, data: string): Promise<void> {
  await db
    .updateTable('variables')
    .set({ data })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** For each of `variableIds` that text of the workspace uses, how many components and text items use it. */
export async function variableUsage(
  db: Executor,
  workspaceId: number,
  variableIds: readonly number[],
): Promise<Map<number, number>> {
  if (variableIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('text_variables')
    .innerJoin('texts', 'texts.id', 'text_variables.text_id')
    .select(['text_variables.variable_id', (eb) => eb.fn.countAll<string | number>().as('uses')])
    .where('texts.workspace_id', '=', workspaceId)
    .where('text_variables.variable_id', 'in', [...variableIds])
    .groupBy('text_variables.variable_id')
    .execute();
  return new Map(rows.map((r) => [r.variable_id, Number(r.uses)]));
}

export async function deleteVariables(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('variables')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
}
