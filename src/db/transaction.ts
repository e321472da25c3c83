import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs one write request as one transaction. The workspace's content revision is advanced first:
 * that takes the workspace row's lock on PostgreSQL, so concurrent writers to one workspace queue
 * up behind each other and every validation inside `work` sees a settled state. ETags derive from
 * the revision, so any write changes them.
 */
export function writeTransaction<T>(
  db: Kysely<Database>,
  workspaceId: number,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('workspaces')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('id', '=', workspaceId)
      .execute();
    return work(trx);
  });
}

export const now = () => new Date().toISOString();
