import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { WritePath, WriteScope } from '../changes/index.js';
import { changesOf } from '../changes/index.js';
import { type VariableData, type VariableType, variableDataError, variableNameError } from './variable-data.js';
import * as repo from './variables.repository.js';
import type { NewVariableInput, VariableUpdateInput } from './variables.schemas.js';

export type { NewVariableInput, VariableData, VariableType, VariableUpdateInput };

/** A variable as other modules use it: `id` is the row id (for `text_variables`), `data` is parsed. */
export interface Variable {
  id: number;
  name: string;
  type: VariableType;
  data: VariableData;
}

/** A variable as the API returns it: its developer ID is its name. */
export interface VariableRecord {
  id: string;
  name: string;
  type: VariableType;
  data: VariableData;
}

const toVariable = (row: repo.VariableRow): Variable => ({
  id: row.id,
  name: row.name,
  type: row.type,
  data: JSON.parse(row.data) as VariableData,
});

/** The workspace's variables, parsed, in creation order (the `default` variable order of exports). */
export async function listVariables(executor: Executor, workspaceId: number): Promise<Variable[]> {
  return (await repo.listVariables(executor, workspaceId)).map(toVariable);
}

/** The variables among `names` that exist in the workspace; a name that does not exist is simply absent. */
export async function resolveVariables(
  executor: Executor,
  workspaceId: number,
  names: readonly string[],
): Promise<Map<string, Variable>> {
  const rows = await repo.findVariablesByName(executor, workspaceId, names);
  return new Map(rows.map((row) => [row.name, toVariable(row)]));
}

const fieldsOf = (v: { name: string; type: VariableType; data: unknown }) => ({
  name: v.name,
  type: v.type,
  data: v.data,
});

export interface VariablesDeps {
  db: Kysely<Database>;
  writes: WritePath;
  /** How many components and text items list each variable (the texts module answers). */
  variableUsage: (
    executor: Executor,
    workspaceId: number,
    variableIds: readonly number[],
  ) => Promise<Map<number, number>>;
}

export function createVariablesService(deps: VariablesDeps) {
  const { db, writes } = deps;

  return {
    listVariables,
    resolveVariables,

    async list(workspaceId: number): Promise<VariableRecord[]> {
      return (await listVariables(db, workspaceId)).map(({ name, type, data }) => ({ id: name, name, type, data }));
    },

    /** Creates all the variables or none; returns their names in request order. */
    async create(scope: WriteScope, variables: readonly NewVariableInput[]): Promise<string[]> {
      const { workspaceId } = scope;
      variables.forEach((variable, index) => {
        const error =
          variableNameError(variable.name, `variables[${index}].name`) ??
          variableDataError(variable.type, variable.data, `variables[${index}].data`);
        if (error) throw badRequest(error);
      });
      const names = variables.map((v) => v.name);
      // A variable's name is its developer ID.
      assertDistinctIds(names, (index) => `variables[${index}].name`, 'variable name');
      return writes.write(scope, async (trx) => {
        const existing = new Set((await repo.findVariablesByName(trx, workspaceId, names)).map((r) => r.name));
        const taken = names.findIndex((name) => existing.has(name));
        if (taken !== -1)
          throw conflict(`variables[${taken}].name: Variable ${names[taken]} already exists in workspace`);
        const rows = variables.map(({ name, type, data }) => ({ name, type, data: JSON.stringify(data) }));
        let ids: number[];
        try {
          ids = await repo.insertVariables(trx, workspaceId, rows, now());
        } catch (error) {
          // Only reachable if a concurrent request created one of the names after the check above.
          if (isUniqueViolation(error))
            throw conflict('variables: a variable of this name already exists in workspace');
          throw error;
        }
        const changes = changesOf(
          variables.map((variable, index) => ({
            identity: identity(ids[index] as number, variable.name),
            before: null,
            after: fieldsOf(variable),
          })),
        );
        return { changes, result: names };
      });
    },

    /** Replaces the data of each variable; the type never changes, so data is checked against it. */
    async update(scope: WriteScope, updates: readonly VariableUpdateInput[]): Promise<void> {
      const { workspaceId } = scope;
      const ids = updates.map((u) => u.developerId);
      assertDistinctIds(ids, (index) => `updates[${index}].developerId`);
      await writes.write(scope, async (trx) => {
        const byName = await resolveVariables(trx, workspaceId, ids);
        const planned = updates.map((update, index) => {
          const variable = byName.get(update.developerId);
          if (!variable) throw notFound(`Variable with developer ID ${update.developerId} not found`);
          const error = variableDataError(variable.type, update.data, `updates[${index}].data`);
          if (error) throw badRequest(error);
          return { variable, data: update.data };
        });
        return {
          changes: changesOf(
            planned.map(({ variable, data }) => ({
              identity: identity(variable.id, variable.name),
              before: fieldsOf(variable),
              after: fieldsOf({ ...variable, data }),
            })),
          ),
          apply: async (trx) => {
            for (const { variable, data } of planned) {
              await repo.updateVariableData(trx, workspaceId, variable.id, JSON.stringify(data));
            }
          },
          result: undefined,
        };
      });
    },

    /** Deletes all the variables or none; a variable that text still uses cannot go. */
    async remove(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
      await writes.write(scope, async (trx) => {
        const byName = await resolveVariables(trx, workspaceId, developerIds);
        const targets = developerIds.map((id) => {
          const variable = byName.get(id);
          if (!variable) throw notFound(`Variable with developer ID ${id} not found`);
          return variable;
        });
        const usage = await deps.variableUsage(
          trx,
          workspaceId,
          targets.map((v) => v.id),
        );
        for (const variable of targets) {
          const uses = usage.get(variable.id) ?? 0;
          if (uses > 0) {
            const records = uses === 1 ? '1 record' : `${uses} records`;
            throw badRequest(`Variable ${variable.name} is used by ${records} and cannot be deleted`);
          }
        }
        return {
          changes: changesOf(
            targets.map((v) => ({ identity: identity(v.id, v.name), before: fieldsOf(v), after: null })),
          ),
          apply: (trx) =>
            repo.deleteVariables(
              trx,
              workspaceId,
              targets.map((v) => v.id),
            ),
          result: undefined,
        };
      });
    },
  };
}

const identity = (id: number, name: string) => ({
  kind: 'variable' as const,
  ref: `variable:${id}`,
  developerId: name,
});

export type VariablesService = ReturnType<typeof createVariablesService>;
