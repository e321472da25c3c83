import type { Insertable, Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { ApiKeysTable, Database, Executor, Role } from '../../db/schema.js';

export function findWorkspace(db: Executor, id: number) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The workspace settings that shape text: its base language and whether `sup`/`sub` are enabled. */
export function findTextSettings(db: Executor, workspaceId: number) {
  return db
    .selectFrom('workspaces')
    .select(['base_language', 'sup_sub_enabled'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
}

export async function countWorkspaces(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertWorkspace(db: Executor, name: string, createdAt: string): Promise<number> {
  const row = await db
    .insertInto('workspaces')
    .values({ name, base_language: 'en', created_at: createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findUserByEmail(db: Executor, workspaceId: number, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .executeTakeFirst();
}

export function listUsers(db: Executor, workspaceId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('email')
    .execute();
}

export async function insertUser(
  db: Executor,
  user: { workspaceId: number; email: string; name: string; role: Role; createdAt: string },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      workspace_id: user.workspaceId,
      email: user.email,
      name: user.name,
      role: user.role,
      created_at: user.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertKey(db: Executor, key: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export function listKeys(db: Executor, workspaceId: number) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.prefix',
      'users.email',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
    ])
    .where('api_keys.workspace_id', '=', workspaceId)
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.id')
    .execute();
}

export async function revokeKey(db: Executor, keyId: string, revokedAt: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: revokedAt })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function findKey(db: Executor, keyId: string) {
  return db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
}

const activeKeyByHash = preparedQuery<Database, { hash: string }, ActiveKey>((db, marker) =>
  db
    .selectFrom('api_keys')
    .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.workspace_id',
      'api_keys.user_id',
      'api_keys.last_used_at',
      'workspaces.revision',
      'users.email',
      'users.role',
    ])
    .where('api_keys.hash', '=', marker('hash'))
    .where('api_keys.revoked_at', 'is', null),
);

export interface ActiveKey {
  id: string;
  workspace_id: number;
  user_id: number;
  last_used_at: string | null;
  revision: number;
  email: string;
  role: Role;
}

/**
 * The principal behind an active key, looked up by the key's hash, with the workspace's content
 * revision read in the same query (it keys the response cache and ETags).
 */
export async function findActiveKeyByHash(db: Kysely<Database>, hash: string): Promise<ActiveKey | undefined> {
  return (await activeKeyByHash(db, { hash }))[0];
}

export async function touchKey(db: Executor, keyId: string, usedAt: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: usedAt }).where('id', '=', keyId).execute();
}

export async function claimMetaKey(db: Executor, key: string, value: string): Promise<void> {
  await db.insertInto('meta').values({ key, value }).execute();
}

/** The settings of GET and PATCH /v2/workspace. */
export interface SettingsRow {
  name: string;
  base_language: string;
  library_developer_mode: number;
}

export function findSettings(db: Executor, workspaceId: number): Promise<SettingsRow | undefined> {
  return db
    .selectFrom('workspaces')
    .select(['name', 'base_language', 'library_developer_mode'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
}

export async function updateSettings(db: Executor, workspaceId: number, changes: Partial<SettingsRow>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('workspaces').set(changes).where('id', '=', workspaceId).execute();
}
