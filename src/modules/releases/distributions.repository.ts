import type { Insertable, Selectable } from 'kysely';
import type { DistributionsTable, Executor } from '../../db/schema.js';

/** A `distributions` row: this module's own; the service answers `Distribution`s. */
export type DistributionRow = Selectable<DistributionsTable>;
export type NewDistributionRow = Omit<Insertable<DistributionsTable>, 'id' | 'workspace_id'>;

/** Answers the new row's id. */
export async function insertDistribution(db: Executor, workspaceId: number, row: NewDistributionRow): Promise<number> {
  const { id } = await db
    .insertInto('distributions')
    .values({ ...row, workspace_id: workspaceId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export function listDistributions(db: Executor, workspaceId: number): Promise<DistributionRow[]> {
  return db.selectFrom('distributions').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}

export function findDistribution(db: Executor, workspaceId: number, name: string) {
  return db
    .selectFrom('distributions')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/**
 * The live (not revoked) distribution of a token's hash, with the release a delivery URL names:
 * by name, or for `latest` the one published to it (none: the release's columns are null). One
 * query, since every delivery request makes it.
 */
export function distributionByToken(db: Executor, tokenHash: string, release: string) {
  return db
    .selectFrom('distributions as d')
    .leftJoin('releases as r', (join) =>
      release === 'latest'
        ? join.onRef('r.id', '=', 'd.release_id')
        : join.onRef('r.workspace_id', '=', 'd.workspace_id').on('r.name', '=', release),
    )
    .select([
      'd.id',
      'd.workspace_id',
      'd.name',
      'd.projects',
      'd.formats',
      'r.id as release_id',
      'r.name as release_name',
      'r.filter as release_filter',
      'r.basis_hash',
      'r.content_hash',
      'r.components',
      'r.text_items',
      'r.created_by',
      'r.created_at',
    ])
    .where('d.token_hash', '=', tokenHash)
    .where('d.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function setPublished(
  db: Executor,
  id: number,
  published: { releaseId: number; at: string },
): Promise<void> {
  await db
    .updateTable('distributions')
    .set({ release_id: published.releaseId, published_at: published.at })
    .where('id', '=', id)
    .execute();
}

/** Replaces a live distribution's token (its hash): the old token stops at once. */
export async function replaceToken(db: Executor, id: number, tokenHash: string): Promise<void> {
  await db
    .updateTable('distributions')
    .set({ token_hash: tokenHash })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes a distribution: its token stops at once, and the release it served is free to delete. */
export async function revokeDistribution(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('distributions').set({ revoked_at: at, release_id: null }).where('id', '=', id).execute();
}
