import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { SuggestionActor } from '../suggestions/suggestions.service.js';
import { developerIdsByRowIds, type TextKind } from '../texts/index.js';
import * as repo from './mt.repository.js';
import type { CreateJobInput, JobDetailType, JobRecordType } from './mt.schemas.js';
import type { MachineTranslationService } from './mt.service.js';

/**
 * Translate-missing jobs: made in one transaction with the list of their texts (what the variant
 * lacks, and optionally has out of date, in a project, a folder or the workspace, read as the
 * translation progress counts it), run by the job workers (mt.worker.ts), read back with their
 * progress, and canceled.
 */

export interface JobsDeps {
  db: Kysely<Database>;
  service: Pick<MachineTranslationService, 'requireProvider' | 'targetOf'>;
  textsToTranslate: (
    workspaceId: number,
    revision: number,
    query: { projectId?: string; folderId?: string; variantRowId: number; includeOutdated: boolean },
  ) => Promise<{ id: number; kind: TextKind }[]>;
}

const newJobId = () => `tj_${randomBytes(8).toString('hex')}`;

export function createJobsService(deps: JobsDeps) {
  const { db } = deps;

  async function records(workspaceId: number, rows: readonly repo.JobRow[]): Promise<JobRecordType[]> {
    const counts = await repo.itemCounts(
      db,
      rows.map((r) => r.id),
    );
    const providers = new Map((await repo.listProviders(db, workspaceId)).map((p) => [p.id, p.developer_id]));
    return rows.map((row) => {
      const c = counts.get(row.id) ?? { pending: 0, done: 0, failed: 0, skipped: 0, overLimit: 0 };
      return {
        id: row.developer_id,
        providerId: row.provider_id === null ? null : (providers.get(row.provider_id) ?? null),
        variantId: row.variant_id === null ? null : row.variant_developer_id,
        projectId: row.scope_kind === 'project' ? row.scope_id : null,
        folderId: row.scope_kind === 'folder' ? row.scope_id : null,
        includeOutdated: row.include_outdated === 1,
        landAs: row.land_as as 'suggestion' | 'wip',
        overwrite: row.overwrite === 1,
        state: row.state as JobRecordType['state'],
        total: row.total,
        done: c.done,
        failed: c.failed,
        skipped: c.skipped,
        pending: c.pending,
        overLimit: c.overLimit,
        error: row.error,
        createdBy: row.created_by,
        createdAt: row.created_at,
        finishedAt: row.finished_at,
      };
    });
  }

  async function requireJob(workspaceId: number, id: string) {
    const row = await repo.findJob(db, workspaceId, id);
    if (!row) throw notFound(`Translation job ${id} not found`);
    return row;
  }

  return {
    async create(actor: SuggestionActor, revision: number, input: CreateJobInput): Promise<JobRecordType> {
      const { workspaceId } = actor.scope;
      if (input.projectId !== undefined && input.folderId !== undefined) {
        throw badRequest('folderId: give projectId or folderId, not both');
      }
      const landAs = input.landAs ?? 'suggestion';
      if (input.overwrite && landAs !== 'wip') throw badRequest('overwrite: only a job that lands as wip overwrites');
      const provider = await deps.service.requireProvider(db, workspaceId, input.providerId, 'providerId');
      const target = await deps.service.targetOf(db, workspaceId, input.variantId);
      const texts = await deps.textsToTranslate(workspaceId, revision, {
        ...(input.projectId !== undefined && { projectId: input.projectId }),
        ...(input.folderId !== undefined && { folderId: input.folderId }),
        variantRowId: target.variantRowId,
        includeOutdated: input.includeOutdated ?? false,
      });
      const developerId = newJobId();
      const at = now();
      await db.transaction().execute(async (trx) => {
        const jobId = await repo.insertJob(trx, {
          workspace_id: workspaceId,
          developer_id: developerId,
          provider_id: provider.id,
          variant_id: target.variantRowId,
          variant_developer_id: target.variantId,
          scope_kind: input.projectId !== undefined ? 'project' : input.folderId !== undefined ? 'folder' : 'workspace',
          scope_id: input.projectId ?? input.folderId ?? null,
          include_outdated: input.includeOutdated ? 1 : 0,
          land_as: landAs,
          overwrite: input.overwrite ? 1 : 0,
          // Nothing to translate: done at once.
          state: texts.length === 0 ? 'done' : 'queued',
          total: texts.length,
          created_by: actor.scope.actor.email,
          created_at: at,
          finished_at: texts.length === 0 ? at : null,
        });
        await repo.insertItems(
          trx,
          jobId,
          texts.map((t) => ({ textId: t.id, kind: t.kind })),
        );
      });
      return (await records(workspaceId, [await requireJob(workspaceId, developerId)]))[0] as JobRecordType;
    },

    async list(workspaceId: number): Promise<JobRecordType[]> {
      return records(workspaceId, await repo.listJobs(db, workspaceId, 100));
    },

    async get(workspaceId: number, id: string): Promise<JobDetailType> {
      const row = await requireJob(workspaceId, id);
      const [record] = await records(workspaceId, [row]);
      const problems = await repo.failedItems(db, row.id, 100);
      const names = await developerIdsByRowIds(
        db,
        workspaceId,
        problems.flatMap((p) => (p.text_id === null ? [] : [p.text_id])),
      );
      return {
        ...(record as JobRecordType),
        problems: problems.map((p) => {
          const name = p.text_id === null ? null : (names.get(p.text_id) ?? null);
          return {
            textItemId: p.record_kind === 'text_item' ? name : null,
            componentId: p.record_kind === 'component' ? name : null,
            state: p.state as 'failed' | 'skipped',
            error: p.error,
          };
        }),
      };
    },

    /** Stops a job: nothing lands after it, not even the text under way (its write is rolled back). */
    async cancel(workspaceId: number, id: string): Promise<JobRecordType> {
      const row = await requireJob(workspaceId, id);
      if (!(await repo.endJob(db, row.id, { state: 'canceled', at: now() }))) {
        throw conflict(`Translation job ${id} is ${row.state}; only a queued or running job can be canceled`);
      }
      return (await records(workspaceId, [await requireJob(workspaceId, id)]))[0] as JobRecordType;
    },
  };
}

export type JobsService = ReturnType<typeof createJobsService>;
