import {
  allOf,
  checkColumns,
  checkReference,
  isBool,
  isInteger,
  isNonEmpty,
  isString,
  isTime,
  maxChars,
  nullable,
  oneOf,
  rowError,
} from '../../db/backup-check.js';
import {
  type BackupRow,
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  insertRows,
  mapId,
  selectRows,
  type TableRestorer,
} from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { insertWorkspace } from './accounts.repository.js';
import { ROLES } from './people.service.js';

/**
 * Backup and restore of what the accounts module owns: the workspace's settings, its users and
 * its API keys (as stored: hashes, never keys, so a restored server accepts the same keys).
 */

const SETTINGS = ['name', 'base_language', 'sup_sub_enabled', 'library_developer_mode', 'created_at'] as const;
const USERS = ['id', 'email', 'name', 'role', 'password_hash', 'created_at'];
const KEYS = ['id', 'user_id', 'name', 'prefix', 'hash', 'created_at', 'last_used_at', 'revoked_at'];

export const USERS_DUMP: DumpSpec = { table: 'users', columns: USERS, keys: ['id'] };

export const dumpSettings = (executor: Executor, workspaceId: number): Promise<BackupRow> =>
  executor
    .selectFrom('workspaces')
    .select([...SETTINGS])
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();

/** A workspace's keys, by creation: few per workspace, so read whole. */
export async function dumpApiKeys(executor: Executor, workspaceId: number): Promise<BackupRow[]> {
  const keys = await selectRows(executor, 'api_keys', KEYS, { column: 'workspace_id', equals: workspaceId });
  return keys.sort(
    (a, b) => String(a.created_at).localeCompare(String(b.created_at)) || String(a.id).localeCompare(String(b.id)),
  );
}

/** The settings of a file's header, checked like the rows. */
export function checkSettings(workspace: unknown): BackupRow {
  if (!workspace || typeof workspace !== 'object' || Array.isArray(workspace)) {
    throw badRequest('file: workspace must be an object');
  }
  const row = workspace as BackupRow;
  const checks = {
    name: isNonEmpty,
    base_language: isNonEmpty,
    sup_sub_enabled: isBool,
    library_developer_mode: isBool,
    created_at: isTime,
  };
  for (const [column, check] of Object.entries(checks)) {
    const problem = check(row[column]);
    if (problem) throw badRequest(`file: workspace.${column}: ${problem}`);
  }
  return row;
}

/** A new, bare workspace for a restore: the file brings its workflow and style guides. */
export const insertRestoredWorkspace = (trx: Executor, settings: BackupRow) =>
  insertWorkspace(trx, String(settings.name).trim(), String(settings.created_at));

export const restoreSettings = (trx: Executor, workspaceId: number, settings: BackupRow) =>
  trx
    .updateTable('workspaces')
    .set(Object.fromEntries(SETTINGS.map((c) => [c, settings[c]])))
    .where('id', '=', workspaceId)
    .execute();

const USER_CHECKS = {
  id: isInteger,
  email: allOf(isNonEmpty, maxChars(320)),
  name: maxChars(200),
  // An unknown role is refused: a role the code does not know must never reach a rights check.
  role: oneOf(ROLES),
  password_hash: nullable(isString),
  created_at: isTime,
};

/** Users are matched by email: a user the workspace already has stays, and is used. */
export function usersRestorer(maps: IdMaps): TableRestorer {
  const byEmail = new Map<string, number>();
  const seen = new Set<string>();
  return {
    async start(trx) {
      const existing = await selectRows(trx, 'users', ['id', 'email'], {
        column: 'workspace_id',
        equals: maps.workspaceId,
      });
      for (const u of existing) byEmail.set(String(u.email), Number(u.id));
    },
    async rows(trx, rows, first) {
      const fresh: BackupRow[] = [];
      rows.forEach((row, i) => {
        checkNewId('users', first + i, row, maps.users);
        checkColumns({ table: 'users', index: first + i, row }, USER_CHECKS);
        const email = String(row.email);
        if (seen.has(email))
          throw rowError({ table: 'users', index: first + i, row }, 'email', `'${email}' is used by an earlier user`);
        seen.add(email);
        const existing = byEmail.get(email);
        if (existing === undefined) fresh.push({ ...row, workspace_id: maps.workspaceId });
        else maps.users.set(Number(row.id), existing);
      });
      await insertMapped(trx, {
        table: 'users',
        columns: ['workspace_id', ...USERS.slice(1)],
        rows: fresh,
        keyColumns: ['email'],
        ids: maps.users,
      });
    },
  };
}

/** A key whose id or hash another workspace of this database holds is skipped and named. */
export function apiKeysRestorer(maps: IdMaps, skipped: string[]): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns(
          { table: 'apiKeys', index: first + i, row },
          {
            id: isNonEmpty,
            name: isString,
            prefix: isString,
            hash: isNonEmpty,
            created_at: isTime,
            last_used_at: nullable(isTime),
            revoked_at: nullable(isTime),
          },
        );
        checkReference(
          { table: 'apiKeys', index: first + i, row },
          'user_id',
          { name: 'users', ids: maps.users },
          false,
        );
      });
      const ids = rows.map((k) => String(k.id));
      const hashes = rows.map((k) => String(k.hash));
      const taken = await trx
        .selectFrom('api_keys')
        .select(['id', 'hash'])
        .where((eb) => eb.or([eb('id', 'in', ids), eb('hash', 'in', hashes)]))
        .execute();
      const takenIds = new Set(taken.flatMap((k) => [k.id, k.hash]));
      const keys: BackupRow[] = [];
      for (const k of rows) {
        if (takenIds.has(String(k.id)) || takenIds.has(String(k.hash))) skipped.push(String(k.id));
        else keys.push({ ...k, workspace_id: maps.workspaceId, user_id: mapId(maps.users, k.user_id) });
      }
      await insertRows(trx, 'api_keys', ['workspace_id', ...KEYS], keys);
    },
  };
}

/** The database's workspace when it has exactly one: what a backup of "the" workspace means. */
export async function soleWorkspaceId(executor: Executor): Promise<number | undefined> {
  const rows = await executor.selectFrom('workspaces').select('id').orderBy('id').limit(2).execute();
  return rows.length === 1 ? rows[0]?.id : undefined;
}
