import type { Insertable, Selectable } from 'kysely';
import type { Executor, ReleasesTable } from '../../db/schema.js';

/** A `releases` row: this module's own; the service answers `Release`s. */
export type ReleaseRow = Selectable<ReleasesTable>;
export type NewReleaseRow = Omit<Insertable<ReleasesTable>, 'id' | 'workspace_id'>;

/** Rows per insert statement: well under both databases' limits on bound parameters. */
const ROWS_PER_INSERT = 400;

/** Stores documents by their hash; a document the workspace already holds is left as it is. */
export async function insertContents(
  db: Executor,
  workspaceId: number,
  documents: readonly { hash: string; body: string }[],
): Promise<void> {
  const unique = [...new Map(documents.map((d) => [d.hash, d])).values()];
  for (let i = 0; i < unique.length; i += ROWS_PER_INSERT) {
    const part = unique.slice(i, i + ROWS_PER_INSERT).map((d) => ({ workspace_id: workspaceId, ...d }));
    await db
      .insertInto('release_contents')
      .values(part)
      .onConflict((oc) => oc.columns(['workspace_id', 'hash']).doNothing())
      .execute();
  }
}

export async function insertRelease(
  db: Executor,
  workspaceId: number,
  row: NewReleaseRow,
  texts: readonly { kind: 'component' | 'text_item'; hash: string }[],
): Promise<number> {
  const { id } = await db
    .insertInto('releases')
    .values({ ...row, workspace_id: workspaceId })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < texts.length; i += ROWS_PER_INSERT) {
    const part = texts.slice(i, i + ROWS_PER_INSERT).map((t, j) => ({ release_id: id, seq: i + j, ...t }));
    await db.insertInto('release_texts').values(part).execute();
  }
  return id;
}

export function listReleases(db: Executor, workspaceId: number): Promise<ReleaseRow[]> {
  return db.selectFrom('releases').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}

export function findRelease(db: Executor, workspaceId: number, name: string): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom('releases')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export function findReleaseById(db: Executor, workspaceId: number, id: number): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom('releases')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The release made just before `id` in the workspace, if any. */
export function previousRelease(db: Executor, workspaceId: number, id: number): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom('releases')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '<', id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A stored document's body. */
export async function contentBody(db: Executor, workspaceId: number, hash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('release_contents')
    .select('body')
    .where('workspace_id', '=', workspaceId)
    .where('hash', '=', hash)
    .executeTakeFirst();
  return row?.body;
}

/** The documents of a release's texts, in order, with their kind. */
export function releaseTexts(
  db: Executor,
  workspaceId: number,
  releaseId: number,
): Promise<{ kind: 'component' | 'text_item'; body: string }[]> {
  return db
    .selectFrom('release_texts as t')
    .innerJoin('release_contents as c', (join) =>
      join.onRef('c.hash', '=', 't.hash').on('c.workspace_id', '=', workspaceId),
    )
    .select(['t.kind', 'c.body'])
    .where('t.release_id', '=', releaseId)
    .orderBy('t.seq')
    .execute();
}

/** Deletes a release and the documents no other release of the workspace uses. */
export async function deleteRelease(db: Executor, workspaceId: number, id: number): Promise<void> {
  await db.deleteFrom('release_texts').where('release_id', '=', id).execute();
  await db.deleteFrom('releases').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  await db
    .deleteFrom('release_contents')
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.and([
        eb(
          'hash',
          'not in',
          eb
            .selectFrom('release_texts as t')
            .innerJoin('releases as r', 'r.id', 't.release_id')
            .select('t.hash')
            .where('r.workspace_id', '=', workspaceId),
        ),
        eb('hash', 'not in', eb.selectFrom('releases').select('basis_hash').where('workspace_id', '=', workspaceId)),
      ]),
    )
    .execute();
}

/** Names of the distributions that serve a release (it cannot be deleted while any does). */
export async function distributionsUsing(db: Executor, workspaceId: number, releaseId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('distributions')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('release_id', '=', releaseId)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.name);
}
