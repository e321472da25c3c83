import {
  checkColumns,
  checkReference,
  isBool,
  isDeveloperId,
  isInteger,
  isNonEmpty,
  isString,
  isTime,
  nullable,
  oneOf,
} from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  insertRows,
  mapId,
  refuseTakenKeys,
  type TableRestorer,
} from '../../db/backup-rows.js';
import { PROVIDER_KINDS } from './mt.providers.js';

/**
 * Machine translation as stored, for backup and restore: the providers (their credential as
 * sealed, so a backup holds no credential in the clear, and a restore on a server with another
 * COPYDESK_SECRET asks for it again), the jobs and their texts. A job's lease is not backed up:
 * a restored job still to run is taken by the restoring server's workers and goes on.
 */
const PROVIDER_COLUMNS = [
  'id',
  'developer_id',
  'name',
  'kind',
  'url',
  'model',
  'api_key',
  'api_key_last_four',
  'private_network',
  'requests_per_minute',
  'concurrency',
  'timeout_ms',
  'created_at',
  'updated_at',
];
const JOB_COLUMNS = [
  'id',
  'developer_id',
  'provider_id',
  'variant_id',
  'variant_developer_id',
  'scope_kind',
  'scope_id',
  'include_outdated',
  'land_as',
  'overwrite',
  'state',
  'total',
  'error',
  'created_by',
  'created_at',
  'finished_at',
];
const ITEM_COLUMNS = ['id', 'job_id', 'text_id', 'record_kind', 'state', 'over_limit', 'error'];

export const MT_PROVIDERS_DUMP: DumpSpec = { table: 'mt_providers', columns: PROVIDER_COLUMNS, keys: ['id'] };
export const MT_JOBS_DUMP: DumpSpec = { table: 'mt_jobs', columns: JOB_COLUMNS, keys: ['id'] };
export const MT_JOB_ITEMS_DUMP: DumpSpec = {
  table: 'mt_job_items',
  columns: ITEM_COLUMNS,
  keys: ['job_id', 'id'],
  via: { column: 'job_id', table: 'mt_jobs' },
};

const positive = (v: unknown) => isInteger(v) ?? (Number(v) >= 1 ? null : 'must be at least 1');

const PROVIDER_CHECKS = {
  id: isInteger,
  developer_id: isDeveloperId,
  name: isNonEmpty,
  kind: oneOf([...PROVIDER_KINDS]),
  url: isNonEmpty,
  model: nullable(isNonEmpty),
  api_key: nullable(isNonEmpty),
  api_key_last_four: nullable(isString),
  private_network: isBool,
  requests_per_minute: positive,
  concurrency: positive,
  timeout_ms: positive,
  created_at: isTime,
  updated_at: isTime,
};

const JOB_CHECKS = {
  id: isInteger,
  developer_id: isNonEmpty,
  provider_id: nullable(isInteger),
  variant_id: nullable(isInteger),
  variant_developer_id: isDeveloperId,
  scope_kind: oneOf(['project', 'folder', 'workspace']),
  scope_id: nullable(isNonEmpty),
  include_outdated: isBool,
  land_as: oneOf(['suggestion', 'wip']),
  overwrite: isBool,
  state: oneOf(['queued', 'running', 'done', 'canceled', 'failed']),
  total: isInteger,
  error: nullable(isString),
  created_by: isNonEmpty,
  created_at: isTime,
  finished_at: nullable(isTime),
};

const ITEM_CHECKS = {
  id: isInteger,
  job_id: isInteger,
  text_id: nullable(isInteger),
  record_kind: oneOf(['component', 'text_item']),
  state: oneOf(['pending', 'done', 'failed', 'skipped']),
  over_limit: isBool,
  error: nullable(isString),
};

/** Providers after the workspace; jobs after providers, variants and texts; their texts last. */
export function machineTranslationRestorers(maps: IdMaps): {
  providers: TableRestorer;
  jobs: TableRestorer;
  items: TableRestorer;
} {
  return {
    providers: {
      async rows(trx, rows, first) {
        rows.forEach((row, i) => {
          checkColumns({ table: 'mtProviders', index: first + i, row }, PROVIDER_CHECKS);
          checkNewId('mtProviders', first + i, row, maps.mtProviders);
        });
        const mapped = rows.map((r) => ({ ...r, workspace_id: maps.workspaceId }));
        const unique = {
          fileTable: 'mtProviders',
          table: 'mt_providers',
          keys: ['developer_id'],
          workspaceId: maps.workspaceId,
        };
        await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
        await insertMapped(trx, {
          table: 'mt_providers',
          columns: ['workspace_id', ...PROVIDER_COLUMNS.slice(1)],
          rows: mapped,
          keyColumns: ['developer_id'],
          ids: maps.mtProviders,
        });
      },
    },
    jobs: {
      async rows(trx, rows, first) {
        rows.forEach((row, i) => {
          const at = { table: 'mtJobs', index: first + i, row };
          checkColumns(at, JOB_CHECKS);
          checkNewId('mtJobs', first + i, row, maps.mtJobs);
          checkReference(at, 'provider_id', { name: 'mtProviders', ids: maps.mtProviders }, true);
          checkReference(at, 'variant_id', { name: 'variants', ids: maps.variants }, true);
        });
        const mapped = rows.map((r) => ({
          ...r,
          workspace_id: maps.workspaceId,
          provider_id: mapId(maps.mtProviders, r.provider_id),
          variant_id: mapId(maps.variants, r.variant_id),
        }));
        await insertMapped(trx, {
          table: 'mt_jobs',
          columns: ['workspace_id', ...JOB_COLUMNS.slice(1)],
          rows: mapped,
          keyColumns: ['developer_id'],
          ids: maps.mtJobs,
        });
      },
    },
    items: {
      async rows(trx, rows, first) {
        rows.forEach((row, i) => {
          const at = { table: 'mtJobItems', index: first + i, row };
          checkColumns(at, ITEM_CHECKS);
          checkReference(at, 'job_id', { name: 'mtJobs', ids: maps.mtJobs }, false);
          checkReference(at, 'text_id', { name: 'texts', ids: maps.texts }, true);
        });
        await insertRows(
          trx,
          'mt_job_items',
          ITEM_COLUMNS.slice(1),
          rows.map((r) => ({ ...r, job_id: mapId(maps.mtJobs, r.job_id), text_id: mapId(maps.texts, r.text_id) })),
        );
      },
    },
  };
}
