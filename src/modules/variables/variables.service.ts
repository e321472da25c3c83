import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database, Executor } from '../../db/schema.js';
import { now, writeTransaction } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { type VariableData, type VariableType, variableDataError, variableNameError } from './variable-data.js';
import * as repo from './variables.repository.js';

export type { VariableData, VariableType };

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

export interface NewVariableInput {
  name: string;
  type: VariableType;
  data: unknown;
}

export interface VariableUpdateInput {
  developerId: string;
  data: unknown;
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

/** The index of the first repeat in `ids`, for the "repeated developer ID is a 400" rule. */
function firstRepeat(ids: readonly string[]): number {
  const seen = new Set<string>();
  return ids.findIndex((id) => seen.size === seen.add(id).size);
}

export function createVariablesService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  return {
    listVariables,
    resolveVariables,

    async list(workspaceId: number): Promise<VariableRecord[]> {
      return (await listVariables(db, workspaceId)).map(({ name, type, data }) => ({ id: name, name, type, data }));
    },

    /** Creates all the variables or none; returns their names in request order. */
    async create(workspaceId: number, variables: readonly NewVariableInput[]): Promise<string[]> {
      variables.forEach((variable, index) => {
        const error =
          variableNameError(variable.name, `variables[${index}].name`) ??
          variableDataError(variable.type, variable.data, `variables[${index}].data`);
        if (error) throw badRequest(error);
      });
      const names = variables.map((v) => v.name);
      const alreadyExists = (index: number) =>
        conflict(`variables[${index}].name: Variable ${names[index]} already exists in workspace`);
      const repeat = firstRepeat(names);
      await writeTransaction(db, workspaceId, async (trx) => {
        const existing = new Set((await repo.findVariablesByName(trx, workspaceId, names)).map((r) => r.name));
        const taken = names.findIndex((name) => existing.has(name));
        if (taken !== -1 && (repeat === -1 || taken < repeat)) throw alreadyExists(taken);
        if (repeat !== -1) throw alreadyExists(repeat);
        const rows = variables.map(({ name, type, data }) => ({ name, type, data: JSON.stringify(data) }));
        try {
          await repo.insertVariables(trx, workspaceId, rows, now());
        } catch (error) {
          // Only reachable if a concurrent request created one of the names after the check above.
          if (isUniqueViolation(error))
            throw conflict('variables: a variable of this name already exists in workspace');
          throw error;
        }
      });
      return names;
    },

    /** Replaces the data of each variable; the type never changes, so data is checked against it. */
    async update(workspaceId: number, updates: readonly VariableUpdateInput[]): Promise<void> {
      const ids = updates.map((u) => u.developerId);
      await writeTransaction(db, workspaceId, async (trx) => {
        const byName = await resolveVariables(trx, workspaceId, ids);
        const repeat = firstRepeat(ids);
        const writes = updates.map((update, index) => {
          if (index === repeat) {
            throw badRequest(`updates[${index}].developerId: duplicate developer ID '${update.developerId}'`);
          }
          const variable = byName.get(update.developerId);
          if (!variable) throw notFound(`Variable with developer ID ${update.developerId} not found`);
          const error = variableDataError(variable.type, update.data, `updates[${index}].data`);
          if (error) throw badRequest(error);
          return { id: variable.id, data: JSON.stringify(update.data) };
        });
        for (const write of writes) await repo.updateVariableData(trx, workspaceId, write.id, write.data);
      });
    },

    /** Deletes all the variables or none; a variable that text still uses cannot go. */
    async remove(workspaceId: number, developerIds: readonly string[]): Promise<void> {
      await writeTransaction(db, workspaceId, async (trx) => {
        const byName = await resolveVariables(trx, workspaceId, developerIds);
        const repeat = firstRepeat(developerIds);
        const targets = developerIds.map((id, index) => {
          if (index === repeat) throw badRequest(`developerIds[${index}]: duplicate developer ID '${id}'`);
          const variable = byName.get(id);
          if (!variable) throw notFound(`Variable with developer ID ${id} not found`);
          return variable;
        });
        const usage = await repo.variableUsage(
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
        await repo.deleteVariables(
          trx,
          workspaceId,
          targets.map((v) => v.id),
        );
      });
    },
  };
}

export type VariablesService = ReturnType<typeof createVariablesService>;
