import type { Insertable, Selectable } from 'kysely';
import type { Executor, WebhooksTable } from '../../db/schema.js';
import type { Webhook } from './webhooks.types.js';

/**
 * The `webhooks` and `webhook_signing_keys` tables. Which enabled webhooks a write notifies, the
 * read every write runs, is the outbox's own (outbox.ts).
 */

export type WebhookRow = Selectable<WebhooksTable>;

export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.developer_id,
  name: row.name,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  enabled: row.enabled === 1,
  disabledReason: row.disabled_reason,
  createdAt: row.created_at,
});

export function listWebhooks(db: Executor, workspaceId: number): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}

export async function insertWebhooks(
  db: Executor,
  rows: readonly Omit<Insertable<WebhooksTable>, 'id'>[],
): Promise<WebhookRow[]> {
  if (rows.length === 0) return [];
  return db.insertInto('webhooks').values(rows).returningAll().execute();
}

export type WebhookChanges = Partial<
  Pick<WebhookRow, 'name' | 'url' | 'events' | 'enabled' | 'disabled_reason' | 'failing_since'>
>;

export async function updateWebhook(db: Executor, id: number, changes: WebhookChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

export async function deleteWebhooks(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('webhooks').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
}

export interface StoredKey {
  stored: string;
  lastFour: string;
}

export async function findSigningKey(db: Executor, workspaceId: number): Promise<StoredKey | null> {
  const row = await db
    .selectFrom('webhook_signing_keys')
    .select(['stored', 'last_four'])
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row ? { stored: row.stored, lastFour: row.last_four } : null;
}

export async function saveSigningKey(db: Executor, workspaceId: number, key: StoredKey, at: string): Promise<void> {
  await db
    .insertInto('webhook_signing_keys')
    .values({ workspace_id: workspaceId, stored: key.stored, last_four: key.lastFour, updated_at: at })
    .onConflict((oc) =>
      oc.column('workspace_id').doUpdateSet({ stored: key.stored, last_four: key.lastFour, updated_at: at }),
    )
    .execute();
}

/** Every stored key, to tell the operator at start which ones the current secret cannot read. */
export function allSigningKeys(db: Executor): Promise<{ workspace_id: number; stored: string }[]> {
  return db.selectFrom('webhook_signing_keys').select(['workspace_id', 'stored']).execute();
}
