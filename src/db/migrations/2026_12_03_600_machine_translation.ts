import { type Kysely, sql } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * Machine translation: the providers a workspace's admins configure (their credential sealed with
 * COPYDESK_SECRET), the translate-missing jobs (claimed with a lease, like the email outbox, so one
 * server runs a job at a time and another takes it over when that server dies), and each job's
 * texts, whose state is written in the transaction of the translation's own write.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('mt_providers'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('model', 'text')
    .addColumn('api_key', 'text')
    .addColumn('api_key_last_four', 'text')
    .addColumn('private_network', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('requests_per_minute', 'integer', (col) => col.notNull())
    .addColumn('concurrency', 'integer', (col) => col.notNull())
    .addColumn('timeout_ms', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('mt_providers_developer_id', ['workspace_id', 'developer_id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('mt_jobs'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('provider_id', 'integer', (col) => col.references('mt_providers.id').onDelete('set null'))
    .addColumn('variant_id', 'integer', (col) => col.references('variants.id').onDelete('set null'))
    .addColumn('variant_developer_id', 'text', (col) => col.notNull())
    .addColumn('scope_kind', 'text', (col) => col.notNull())
    .addColumn('scope_id', 'text')
    .addColumn('include_outdated', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('land_as', 'text', (col) => col.notNull())
    .addColumn('overwrite', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('total', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('claimed_by', 'text')
    .addUniqueConstraint('mt_jobs_developer_id', ['workspace_id', 'developer_id'])
    .execute();
  // The workers' claim reads only the jobs still to run.
  await db.schema
    .createIndex('mt_jobs_queue')
    .on('mt_jobs')
    .columns(['created_at', 'id'])
    .where(sql.ref('state'), 'in', sql`('queued', 'running')`)
    .execute();

  await withIdColumn(db, db.schema.createTable('mt_job_items'))
    .addColumn('job_id', 'integer', (col) => col.notNull().references('mt_jobs.id').onDelete('cascade'))
    .addColumn('text_id', 'integer', (col) => col.references('texts.id').onDelete('set null'))
    .addColumn('record_kind', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('over_limit', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('mt_job_items_job').on('mt_job_items').columns(['job_id', 'state', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['mt_job_items', 'mt_jobs', 'mt_providers']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
