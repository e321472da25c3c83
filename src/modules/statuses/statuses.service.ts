import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { writeTransaction } from '../../db/transaction.js';
import { badRequest } from '../../http/errors.js';
import type { Status } from './statuses.repository.js';
import * as repo from './statuses.repository.js';

export type { Status };

export const DEFAULT_STATUSES: readonly Status[] = [
  { id: 'NONE', name: 'Draft' },
  { id: 'WIP', name: 'In Progress' },
  { id: 'REVIEW', name: 'In Review' },
  { id: 'FINAL', name: 'Final' },
];

export interface ReplaceStatusesInput {
  statuses: Status[];
  reassign?: Record<string, string>;
}

export function createStatusesService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  return {
    list: (workspaceId: number) => repo.listStatuses(db, workspaceId),

    /** Every status key of the workspace, for validating a status sent in a write or a filter. */
    async keys(executor: Executor, workspaceId: number): Promise<Set<string>> {
      return new Set((await repo.listStatuses(executor, workspaceId)).map((s) => s.id));
    },

    seedDefaults: (executor: Executor, workspaceId: number) =>
      repo.replaceStatuses(executor, workspaceId, DEFAULT_STATUSES),

    /** Replaces the workflow, in order. Records on a removed status move to its `reassign` target. */
    async replace(workspaceId: number, input: ReplaceStatusesInput): Promise<void> {
      const seen = new Set<string>();
      input.statuses.forEach((status, index) => {
        if (seen.has(status.id)) throw badRequest(`statuses[${index}].id: duplicate status id '${status.id}'`);
        seen.add(status.id);
      });
      const reassign = input.reassign ?? {};
      await writeTransaction(db, workspaceId, async (trx) => {
        const current = await repo.listStatuses(trx, workspaceId);
        const removed = current.map((s) => s.id).filter((id) => !seen.has(id));
        for (const [from, to] of Object.entries(reassign)) {
          if (!removed.includes(from)) {
            throw badRequest(`reassign.${from}: '${from}' is not a status that this request removes`);
          }
          if (!seen.has(to)) throw badRequest(`reassign.${from}: '${to}' is not one of the new statuses`);
        }
        const inUse = await repo.statusesInUse(trx, workspaceId, removed);
        const stranded = inUse.filter((id) => !(id in reassign)).sort();
        if (stranded.length > 0) {
          throw badRequest(`reassign: statuses still in use need a reassign target: ${stranded.join(', ')}`);
        }
        for (const from of inUse) {
          await repo.reassignStatus(trx, workspaceId, from, reassign[from] as string);
        }
        await repo.replaceStatuses(trx, workspaceId, input.statuses);
      });
    },
  };
}

export type StatusesService = ReturnType<typeof createStatusesService>;
