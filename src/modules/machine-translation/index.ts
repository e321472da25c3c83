/**
 * Machine translation: the providers admins configure, one text's translation, and the
 * translate-missing jobs with their worker. Other code uses only what is exported here.
 */
import type { Kysely } from 'kysely';
import type { MachineTranslationConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { createJobsService, type JobsDeps, type JobsService } from './mt.jobs.js';
import {
  createMachineTranslationService,
  type MachineTranslationDeps,
  type MachineTranslationService,
} from './mt.service.js';
import { createJobWorker, type JobWorker, type JobWorkerOptions } from './mt.worker.js';

export type { JobsService, JobWorker, JobWorkerOptions, MachineTranslationService };

export interface MachineTranslationModule {
  service: MachineTranslationService;
  jobs: JobsService;
  /** A job worker for this process (`server.ts` starts one; tests may). */
  worker(log: Parameters<typeof createJobWorker>[0]['log'], options?: JobWorkerOptions): JobWorker;
}

export function createMachineTranslation(
  deps: MachineTranslationDeps & Pick<JobsDeps, 'textsToTranslate'>,
): MachineTranslationModule {
  const service = createMachineTranslationService(deps);
  const jobs = createJobsService({ db: deps.db as Kysely<Database>, service, textsToTranslate: deps.textsToTranslate });
  return {
    service,
    jobs,
    worker: (log, options = {}) =>
      createJobWorker({
        db: deps.db,
        writes: deps.writes,
        config: deps.config as MachineTranslationConfig,
        service,
        userIdsByEmail: deps.userIdsByEmail,
        log,
        options,
      }),
  };
}
