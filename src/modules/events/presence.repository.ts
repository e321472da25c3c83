import type { Executor } from '../../db/schema.js';
import type { PresenceEntry, PresenceKey, PresenceText } from './events.types.js';

/**
 * The `presence` table: who has which text open, when no Redis is configured. A row counts until
 * its `expires_at`; expired rows are left out of every read and deleted by the next heartbeat of
 * the workspace.
 */

export async function upsertPresence(db: Executor, entry: PresenceEntry & { workspaceId: number }): Promise<void> {
  await db
    .insertInto('presence')
    .values({
      workspace_id: entry.workspaceId,
      email: entry.email,
      client_id: entry.clientId,
      record_kind: entry.kind,
      developer_id: entry.id,
      expires_at: entry.expiresAt,
    })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'email', 'client_id']).doUpdateSet({
        record_kind: entry.kind,
        developer_id: entry.id,
        expires_at: entry.expiresAt,
      }),
    )
    .execute();
}

export async function deletePresence(
  db: Executor,
  key: PresenceKey & { workspaceId: number },
  text?: PresenceText,
): Promise<void> {
  let query = db
    .deleteFrom('presence')
    .where('workspace_id', '=', key.workspaceId)
    .where('email', '=', key.email)
    .where('client_id', '=', key.clientId);
  if (text) query = query.where('record_kind', '=', text.kind).where('developer_id', '=', text.id);
  await query.execute();
}

export async function deleteExpiredPresence(db: Executor, workspaceId: number, now: number): Promise<void> {
  await db.deleteFrom('presence').where('workspace_id', '=', workspaceId).where('expires_at', '<=', now).execute();
}

/** The entries of the workspace that have not expired at `now`, in a stable order. */
export async function listPresence(db: Executor, workspaceId: number, now: number): Promise<PresenceEntry[]> {
  const rows = await db
    .selectFrom('presence')
    .select(['email', 'client_id', 'record_kind', 'developer_id', 'expires_at'])
    .where('workspace_id', '=', workspaceId)
    .where('expires_at', '>', now)
    .orderBy('email')
    .orderBy('client_id')
    .execute();
  return rows.map((row) => ({
    email: row.email,
    clientId: row.client_id,
    kind: row.record_kind as PresenceEntry['kind'],
    id: row.developer_id,
    expiresAt: Number(row.expires_at),
  }));
}
