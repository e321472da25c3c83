import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { MachineTranslationConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { wakeablePause } from '../../shared/wakeable-pause.js';
import type { WritePath } from '../changes/index.js';
import type { SuggestionActor } from '../suggestions/suggestions.service.js';
import { developerIdsByRowIds, loadTextsByDeveloperIds } from '../texts/index.js';
import { RefusedTranslation } from './mt.protect.js';
import { ProviderFailure } from './mt.providers.js';
import * as repo from './mt.repository.js';
import type { MachineTranslationService, Provider, Target } from './mt.service.js';
import type { Translated } from './mt.translate.js';

/**
 * The job worker every server process runs. It claims one job at a time with a lease (renewed
 * while it works), translates the job's pending texts through the provider's gate, and lands each
 * in one transaction with its item's new state, which is written only while this worker still
 * holds the job: a server killed mid-way leaves its job to run out its lease and be taken by
 * another, which goes on with the texts still pending, and a text is never written twice.
 */
export const LEASE_MS = 60_000;
/** Failures to reach the provider in a row that end a job (the rest stay pending). */
const UNREACHABLE_IN_A_ROW = 5;

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobWorker {
  readonly id: string;
  start(): void;
  stop(): Promise<void>;
  wake(): void;
  /** Claims one job (by the clock) and works on it until it ends or is lost; answers the texts it handled. */
  runOnce(): Promise<number>;
}

export interface JobWorkerOptions {
  clock?: { now(): number };
  /** Only the jobs of these workspaces (tests sharing one database). */
  workspaceIds?: readonly number[];
}

/** The claim was lost (canceled, or taken after the lease ran out): the write is rolled back. */
class LostClaim extends Error {}

export function createJobWorker(deps: {
  db: Kysely<Database>;
  writes: WritePath;
  config: MachineTranslationConfig;
  service: Pick<MachineTranslationService, 'toProvider' | 'targetOf' | 'translateEntity' | 'land'>;
  userIdsByEmail: (workspaceId: number) => Promise<ReadonlyMap<string, number>>;
  log: Logger;
  options?: JobWorkerOptions;
}): JobWorker {
  const { db, config, log, service } = deps;
  const clock = deps.options?.clock ?? Date;
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const workspaceIds = deps.options?.workspaceIds;
  let stopping = false;
  let loop: Promise<void> | null = null;
  const idle = wakeablePause();
  const iso = (ms: number) => new Date(ms).toISOString();

  async function finish(item: repo.JobItemRow, state: 'failed' | 'skipped', error: string) {
    return repo.finishItem(db, { id: item.id, jobId: item.job_id, worker: id }, { state, error, overLimit: false });
  }

  async function runJob(job: repo.JobRow): Promise<number> {
    const workspaceId = job.workspace_id;
    const fail = async (error: string) => {
      await repo.endJob(db, job.id, { state: 'failed', at: iso(clock.now()), error, worker: id });
      return 0;
    };
    const providerRow = job.provider_id === null ? undefined : await repo.providerById(db, job.provider_id);
    if (!providerRow) return fail('the provider was deleted');
    let provider: Provider;
    let target: Target;
    try {
      provider = service.toProvider(providerRow);
      target = await service.targetOf(db, workspaceId, job.variant_developer_id);
    } catch (error) {
      return fail((error as Error).message);
    }
    const userIds = await deps.userIdsByEmail(workspaceId);
    const userId = userIds.get(job.created_by);
    if (userId === undefined) return fail(`${job.created_by}, who started the job, is no longer a user`);
    const actor: SuggestionActor = {
      scope: { workspaceId, actor: { email: job.created_by, keyId: null } },
      userId,
      email: job.created_by,
    };
    const landAs = job.land_as as 'suggestion' | 'wip';
    const overwrite = job.overwrite === 1;
    let lost = false;
    let handled = 0;
    let unreachable = 0;
    const heartbeat = setInterval(() => {
      repo
        .renewLease(db, job.id, id, iso(clock.now() + LEASE_MS))
        .then((held) => {
          if (!held) lost = true;
        })
        .catch((error) => log.error({ err: error, job: job.developer_id }, 'translation job lease not renewed'));
    }, LEASE_MS / 4);
    heartbeat.unref();

    async function handle(item: repo.JobItemRow): Promise<void> {
      const names = await developerIdsByRowIds(db, workspaceId, item.text_id === null ? [] : [item.text_id]);
      const developerId = item.text_id === null ? undefined : names.get(item.text_id);
      const [entity] =
        developerId === undefined
          ? []
          : await loadTextsByDeveloperIds(db, workspaceId, item.record_kind, [developerId]);
      if (!entity) return void (await finish(item, 'skipped', 'the text was deleted'));
      if (landAs === 'wip' && !overwrite && entity.variants.some((v) => v.variantId === target.variantRowId)) {
        return void (await finish(
          item,
          'skipped',
          `it has a text in ${target.variantId} already (overwrite not asked)`,
        ));
      }
      let result: Translated;
      try {
        result = await service.translateEntity(provider, entity, { workspaceId, target });
        unreachable = 0;
      } catch (error) {
        if (error instanceof ProviderFailure && error.reason === 'rate_limited') {
          // Still pending: the next round takes it again, after the provider's wait.
          await new Promise((resolve) => setTimeout(resolve, (error.retryAfter ?? 1) * 1000));
          return;
        }
        if (error instanceof ProviderFailure && (error.reason === 'timeout' || error.reason === 'unreachable')) {
          unreachable += 1;
        }
        if (error instanceof ProviderFailure || error instanceof RefusedTranslation) {
          const message = error instanceof RefusedTranslation ? `refused: ${error.message}` : error.message;
          return void (await finish(item, 'failed', message));
        }
        throw error;
      }
      try {
        await deps.writes.composed(actor.scope, async (trx) => {
          const held = await repo.finishItem(
            trx,
            { id: item.id, jobId: job.id, worker: id },
            { state: 'done', error: null, overLimit: result.overLimit },
          );
          if (!held) throw new LostClaim();
          await service.land(trx, { actor, userIds, provider, entity, target, result, landAs, overwrite });
        });
        handled += 1;
      } catch (error) {
        if (error instanceof LostClaim) {
          lost = true;
          return;
        }
        if (error instanceof AppError && error.code !== 'internal') {
          return void (await finish(item, error.code === 'conflict' ? 'skipped' : 'failed', error.message));
        }
        throw error;
      }
    }

    try {
      while (!lost && !stopping) {
        const items = await repo.pendingItems(db, job.id, provider.concurrency * 4);
        if (items.length === 0) {
          await repo.endJob(db, job.id, { state: 'done', at: iso(clock.now()), worker: id });
          break;
        }
        let next = 0;
        const lane = async () => {
          while (next < items.length && !lost && !stopping && unreachable < UNREACHABLE_IN_A_ROW) {
            const item = items[next++] as repo.JobItemRow;
            try {
              await handle(item);
            } catch (error) {
              log.error({ err: error, job: job.developer_id, item: item.id }, 'translation job item failed');
              await finish(item, 'failed', 'internal error');
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(provider.concurrency, items.length) }, lane));
        if (unreachable >= UNREACHABLE_IN_A_ROW) {
          await fail(
            `the provider could not be reached ${UNREACHABLE_IN_A_ROW} times in a row; the rest was not translated`,
          );
          break;
        }
      }
    } finally {
      clearInterval(heartbeat);
    }
    return handled;
  }

  async function runOnce(): Promise<number> {
    const at = clock.now();
    const job = await repo.claimJob(db, {
      worker: id,
      now: iso(at),
      leaseUntil: iso(at + LEASE_MS),
      ...(workspaceIds && { workspaceIds }),
    });
    if (!job) return 0;
    try {
      log.info({ job: job.developer_id }, 'translation job claimed');
      return await runJob(job);
    } finally {
      if (stopping) await repo.releaseJob(db, job.id, id);
    }
  }

  async function run(): Promise<void> {
    while (!stopping) {
      let claimed = false;
      try {
        claimed = (await runOnce()) > 0;
      } catch (error) {
        if (!stopping) log.error({ err: error }, 'translation job worker could not run a job');
      }
      if (stopping) break;
      if (!claimed) await idle.pause(config.pollIntervalMs);
    }
  }

  return {
    id,
    start() {
      if (loop) return;
      stopping = false;
      loop = run();
    },
    wake: () => idle.wake(),
    runOnce,
    async stop() {
      stopping = true;
      idle.wake();
      await loop;
      loop = null;
    },
  };
}
