import { type BackupRow, type IdMaps, insertRows, mapId, selectRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/**
 * Backup and restore of what the accounts module owns: the workspace's settings, its users and
 * its API keys (as stored: hashes, never keys, so a restored server accepts the same keys).
 */

const SETTINGS = ['name', 'base_language', 'sup_sub_enabled', 'library_developer_mode', 'created_at'] as const;
const USERS = ['id', 'email', 'name', 'role', 'password_hash', 'created_at'];
const KEYS = ['id', 'user_id', 'name', 'prefix', 'hash', 'created_at', 'last_used_at', 'revoked_at'];

export interface AccountsBackup {
  workspace: BackupRow;
  users: BackupRow[];
  apiKeys: BackupRow[];
}

export async function dumpAccounts(executor: Executor, workspaceId: number): Promise<AccountsBackup> {
  const workspace = await executor
    .selectFrom('workspaces')
    .select([...SETTINGS])
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const scope = { column: 'workspace_id', in: [workspaceId] };
  return {
    workspace,
    users: await selectRows(executor, 'users', USERS, scope),
    apiKeys: (await selectRows(executor, 'api_keys', KEYS, scope)).sort(
      (a, b) => String(a.created_at).localeCompare(String(b.created_at)) || String(a.id).localeCompare(String(b.id)),
    ),
  };
}

/**
 * Settings are overwritten; users are matched by email (a user the workspace already has stays);
 * a key whose id or hash another workspace of this database holds is skipped and named.
 */
export async function restoreAccounts(trx: Executor, maps: IdMaps, backup: AccountsBackup): Promise<string[]> {
  const { workspaceId } = maps;
  const settings = Object.fromEntries(SETTINGS.map((c) => [c, backup.workspace[c]]));
  await trx.updateTable('workspaces').set(settings).where('id', '=', workspaceId).execute();

  const existing = await selectRows(trx, 'users', ['id', 'email'], { column: 'workspace_id', in: [workspaceId] });
  const byEmail = new Map(existing.map((u) => [String(u.email), Number(u.id)]));
  const fresh = backup.users.filter((u) => !byEmail.has(String(u.email)));
  const inserted = await insertRows(
    trx,
    'users',
    ['workspace_id', ...USERS.slice(1)],
    fresh.map((u) => ({ ...u, workspace_id: workspaceId })),
    { keyColumns: ['email'], scope: { column: 'workspace_id', in: [workspaceId] } },
  );
  for (const u of backup.users) {
    maps.users.set(Number(u.id), byEmail.get(String(u.email)) ?? (inserted.get(Number(u.id)) as number));
  }

  const ids = backup.apiKeys.map((k) => String(k.id));
  const hashes = backup.apiKeys.map((k) => String(k.hash));
  const taken = ids.length
    ? await trx
        .selectFrom('api_keys')
        .select(['id', 'hash'])
        .where((eb) => eb.or([eb('id', 'in', ids), eb('hash', 'in', hashes)]))
        .execute()
    : [];
  const takenIds = new Set(taken.flatMap((k) => [k.id, k.hash]));
  const keys = backup.apiKeys.filter((k) => !takenIds.has(String(k.id)) && !takenIds.has(String(k.hash)));
  await insertRows(
    trx,
    'api_keys',
    ['workspace_id', ...KEYS],
    keys.map((k) => ({ ...k, workspace_id: workspaceId, user_id: mapId(maps.users, k.user_id) })),
  );
  return backup.apiKeys.filter((k) => !keys.includes(k)).map((k) => String(k.id));
}

/** The database's workspace when it has exactly one: what a backup of "the" workspace means. */
export async function soleWorkspaceId(executor: Executor): Promise<number | undefined> {
  const rows = await executor.selectFrom('workspaces').select('id').orderBy('id').limit(2).execute();
  return rows.length === 1 ? rows[0]?.id : undefined;
}
