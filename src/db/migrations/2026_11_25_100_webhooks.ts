import { type Kysely, sql } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * Webhooks, the workspace's signing key, and the outbox their deliveries are sent from: events
 * (written with the change), one delivery per event per webhook, and every attempt of each.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('webhooks'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', 'text', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('webhooks_workspace_developer_id', ['workspace_id', 'developer_id'])
    .execute();

  await db.schema
    .createTable('webhook_signing_keys')
    .addColumn('workspace_id', 'integer', (col) =>
      col.primaryKey().notNull().references('workspaces.id').onDelete('cascade'),
    )
    .addColumn('stored', 'text', (col) => col.notNull())
    .addColumn('last_four', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('webhook_events'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('uuid', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('changes', 'text', (col) => col.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (col) => col.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('webhook_id', 'integer', (col) => col.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').column('webhook_id').execute();

  await withIdColumn(db, db.schema.createTable('webhook_attempts'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull())
    .addColumn('delivery_id', 'integer', (col) => col.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('due_at', 'text', (col) => col.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('request_id', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('next_attempt_at', 'text')
    .addColumn('response_body', 'text')
    .execute();
  // The worker's claim reads only the queue: attempts still to send, by due time.
  await db.schema
    .createIndex('webhook_attempts_queue')
    .on('webhook_attempts')
    .columns(['due_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema.createIndex('webhook_attempts_log').on('webhook_attempts').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').column('delivery_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_events',
    'webhook_signing_keys',
    'webhooks',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
