import type { Executor, Role } from '../../db/schema.js';

/** SQL of users as people who sign in: roles, passwords, sessions and password links. */

export function findUsersByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'workspace_id', 'email', 'name', 'role', 'password_hash'])
    .where('email', '=', email)
    .orderBy('workspace_id')
    .execute();
}

export function listPeople(db: Executor, workspaceId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'password_hash'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('email')
    .execute();
}

export async function updateUser(db: Executor, userId: number, changes: { role?: Role; name?: string }) {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

export async function setPasswordHash(db: Executor, userId: number, hash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
}

export async function insertSession(
  db: Executor,
  session: { id: string; userId: number; csrfToken: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      csrf_token: session.csrfToken,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** A live session's user, with the workspace's revision read in the same query (as for keys). */
export function findLiveSession(db: Executor, id: string, at: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('workspaces', 'workspaces.id', 'users.workspace_id')
    .select([
      'sessions.csrf_token',
      'sessions.expires_at',
      'sessions.created_at',
      'users.id as user_id',
      'users.workspace_id',
      'users.email',
      'users.name',
      'users.role',
      'workspaces.revision',
    ])
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', at)
    .executeTakeFirst();
}

export async function extendSession(db: Executor, id: string, expiresAt: string): Promise<void> {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteUserSessions(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export async function deleteExpiredSessions(db: Executor, at: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', at).execute();
}

export async function insertPasswordLink(
  db: Executor,
  link: { id: string; userId: number; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('password_links')
    .values({
      id: link.id,
      user_id: link.userId,
      created_at: link.createdAt,
      expires_at: link.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Marks a live, unused link used and answers its user; only one caller can win. */
export async function consumePasswordLink(db: Executor, id: string, at: string): Promise<number | null> {
  const link = await db
    .selectFrom('password_links')
    .select(['user_id'])
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (!link) return null;
  const result = await db
    .updateTable('password_links')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? link.user_id : null;
}

export function findUserById(db: Executor, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'workspace_id', 'email', 'name', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Removes the user; the database removes their sessions, password links and keys with them. */
export async function deleteUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
