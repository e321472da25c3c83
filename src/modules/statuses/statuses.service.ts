import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { Change, WritePath, WriteScope } from '../changes/index.js';
import { changeOf } from '../changes/index.js';
import type { TextCascades } from '../texts/index.js';
import type { Status } from './statuses.repository.js';
import * as repo from './statuses.repository.js';
import type { ReplaceStatusesInput } from './statuses.schemas.js';

export type { ReplaceStatusesInput, Status };

export const DEFAULT_STATUSES: readonly Status[] = [
  { id: 'NONE', name: 'Draft' },
  { id: 'WIP', name: 'In Progress' },
  { id: 'REVIEW', name: 'In Review' },
  { id: 'FINAL', name: 'Final' },
];

/**
 * The workflow is one record per workspace: the change log names it `statuses` and records the
 * whole ordered list before and after, as GET /v2/statuses shows it.
 */
export const STATUSES_DEVELOPER_ID = 'statuses';

const workflowIdentity = (workspaceId: number) => ({
  kind: 'statuses' as const,
  ref: `statuses:${workspaceId}`,
  developerId: STATUSES_DEVELOPER_ID,
});

const listed = (statuses: readonly Status[]) => statuses.map(({ id, name }) => ({ id, name }));

export interface StatusesDeps {
  db: Kysely<Database>;
  writes: WritePath;
  /** Which removed statuses texts still carry, and moving those texts (the texts module answers). */
  textStatuses: Pick<TextCascades, 'statusesInUse' | 'reassignStatuses'>;
}

export function createStatusesService(deps: StatusesDeps) {
  const { db, writes, textStatuses } = deps;

  return {
    list: (workspaceId: number) => repo.listStatuses(db, workspaceId),

    /** Every status key of the workspace, for validating a status sent in a write or a filter. */
    async keys(executor: Executor, workspaceId: number): Promise<Set<string>> {
      return new Set((await repo.listStatuses(executor, workspaceId)).map((s) => s.id));
    },

    /** A new workspace's workflow; part of creating the workspace, so not a change of its own. */
    seedDefaults: (executor: Executor, workspaceId: number) =>
      repo.replaceStatuses(executor, workspaceId, DEFAULT_STATUSES),

    /**
     * Replaces the workflow, in order. Components, text items and variant values on a removed
     * status move to its `reassign` target, and each of them is recorded as changed.
     */
    async replace(scope: WriteScope, input: ReplaceStatusesInput): Promise<void> {
      const { workspaceId } = scope;
      const ids = input.statuses.map((s) => s.id);
      assertDistinctIds(ids, (index) => `statuses[${index}].id`, 'status id');
      const kept = new Set(ids);
      const reassign = input.reassign ?? {};
      await writes.write(scope, async (trx) => {
        const current = await repo.listStatuses(trx, workspaceId);
        const removed = current.map((s) => s.id).filter((id) => !kept.has(id));
        for (const [from, to] of Object.entries(reassign)) {
          if (!removed.includes(from)) {
            throw badRequest(`reassign.${from}: '${from}' is not a status that this request removes`);
          }
          if (!kept.has(to)) throw badRequest(`reassign.${from}: '${to}' is not one of the new statuses`);
        }
        const inUse = await textStatuses.statusesInUse(trx, workspaceId, removed);
        const stranded = inUse.filter((id) => !(id in reassign)).sort();
        if (stranded.length > 0) {
          throw badRequest(`reassign: statuses still in use need a reassign target: ${stranded.join(', ')}`);
        }
        const workflow = changeOf(
          workflowIdentity(workspaceId),
          { statuses: listed(current) },
          { statuses: listed(input.statuses) },
        );
        const moves = new Map(inUse.map((from) => [from, reassign[from] as string]));
        const texts = await textStatuses.reassignStatuses(trx, workspaceId, moves);
        const changes: Change[] = workflow ? [workflow, ...texts] : texts;
        return {
          changes,
          apply: (trx) => repo.replaceStatuses(trx, workspaceId, input.statuses),
          result: undefined,
        };
      });
    },
  };
}

export type StatusesService = ReturnType<typeof createStatusesService>;
