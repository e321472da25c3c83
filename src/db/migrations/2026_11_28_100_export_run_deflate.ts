import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * Each stored run of export fragments also keeps its bytes compressed (docs/exports.md#fragments, "Compressed runs"):
 * raw deflate blocks ending on a byte boundary, their CRC-32 and their length. A gzip export
 * sends an unchanged run's blocks as they are instead of compressing its bytes again. Runs stored
 * before have none and are placed as text, as before, until an export stores them again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const binary = dialectOf(db) === 'postgres' ? sql`bytea` : sql`blob`;
  await db.schema.alterTable('export_fragment_runs').addColumn('deflated', binary).execute();
  // The CRC as a signed 32-bit integer (both databases' `integer`); the length in bytes.
  await db.schema.alterTable('export_fragment_runs').addColumn('crc', 'integer').execute();
  await db.schema.alterTable('export_fragment_runs').addColumn('size', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['deflated', 'crc', 'size']) {
    await db.schema.alterTable('export_fragment_runs').dropColumn(column).execute();
  }
}
