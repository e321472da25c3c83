/**
 * The notifications' and follows' SQL. Every query names the workspace and the user: a user sees
 * only their own rows. Row types stay here; the service answers `NotificationRecord`s.
 */

import type { Insertable, Selectable } from 'kysely';
import { bulkInsert, bulkInsertReturning } from '../../db/bulk-insert.js';
import type { Executor, FollowsTable, NotificationsTable } from '../../db/schema.js';

export type NotificationRow = Selectable<NotificationsTable>;
export type NewNotificationRow = Omit<Insertable<NotificationsTable>, 'id' | 'read_at'>;
export type FollowRow = Selectable<FollowsTable>;
export type NewFollowRow = Omit<Insertable<FollowsTable>, 'id'>;

/** Ids per `in (...)` list: well under both databases' limits on bound parameters. */
const IDS_PER_QUERY = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const NOTIFICATION_COLUMNS = [
  'workspace_id',
  'user_id',
  'kind',
  'record_kind',
  'text_id',
  'record_developer_id',
  'project_developer_id',
  'variant_developer_id',
  'thread_id',
  'comment_id',
  'actor',
  'detail',
  'at',
] as const;

/** Inserts the notifications (a comment mentioning a hundred users makes a hundred rows in one statement); answers their ids. */
export async function insertNotifications(db: Executor, rows: readonly NewNotificationRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await bulkInsertReturning<{ id: number }>(
    db,
    {
      table: 'notifications',
      columns: NOTIFICATION_COLUMNS,
      rows: rows.map((r) => NOTIFICATION_COLUMNS.map((c) => r[c] ?? null)),
    },
    ['id'],
  );
  // Neither database promises the order of a multi-row insert's `returning`, but each statement
  // takes its ids in row order and the statements run one after another in this transaction:
  // sorted, the ids are the rows' in order.
  return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** A user's notifications, newest first, after the cursor's id. */
export async function listNotifications(
  db: Executor,
  owner: { workspaceId: number; userId: number },
  page: { unread: boolean; beforeId?: number; limit: number },
): Promise<NotificationRow[]> {
  let query = db
    .selectFrom('notifications')
    .selectAll()
    .where('workspace_id', '=', owner.workspaceId)
    .where('user_id', '=', owner.userId);
  if (page.unread) query = query.where('read_at', 'is', null);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}

/** How many of a user's notifications are unread: one count on `notifications_unread`. */
export async function countUnread(db: Executor, owner: { workspaceId: number; userId: number }): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', owner.workspaceId)
    .where('user_id', '=', owner.userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Of these ids, those that are the user's own notifications. */
export async function ownIds(
  db: Executor,
  owner: { workspaceId: number; userId: number },
  ids: readonly number[],
): Promise<Set<number>> {
  const out = new Set<number>();
  for (const part of chunks([...new Set(ids)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('notifications')
      .select('id')
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', owner.userId)
      .where('id', 'in', part)
      .execute();
    for (const row of rows) out.add(row.id);
  }
  return out;
}

/** Marks the user's notifications read: those of `ids`, or all of them (ids null). Answers how many changed. */
export async function markRead(
  db: Executor,
  owner: { workspaceId: number; userId: number },
  change: { ids: readonly number[] | null; at: string },
): Promise<number> {
  const base = () =>
    db
      .updateTable('notifications')
      .set({ read_at: change.at })
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', owner.userId)
      .where('read_at', 'is', null);
  if (change.ids === null) return Number((await base().executeTakeFirst()).numUpdatedRows);
  let updated = 0;
  for (const part of chunks([...new Set(change.ids)], IDS_PER_QUERY)) {
    updated += Number((await base().where('id', 'in', part).executeTakeFirst()).numUpdatedRows);
  }
  return updated;
}

/** The unread notifications of users since an id, oldest first: what a digest collects. */
export async function unreadSince(
  db: Executor,
  workspaceId: number,
  since: { afterId: number; limit: number },
): Promise<NotificationRow[]> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('read_at', 'is', null)
    .where('id', '>', since.afterId)
    .orderBy('id')
    .limit(since.limit)
    .execute();
}

// Follows.

const FOLLOW_COLUMNS = ['workspace_id', 'user_id', 'record_kind', 'text_id', 'reason', 'created_at'] as const;

/** Inserts follows of texts nobody follows yet (new texts), in as few statements as the parameters allow. */
export async function insertFollows(db: Executor, rows: readonly NewFollowRow[]): Promise<void> {
  if (rows.length === 0) return;
  await bulkInsert(
    db,
    'follows',
    FOLLOW_COLUMNS,
    rows.map((r) => FOLLOW_COLUMNS.map((c) => r[c])),
  );
}

/** Adds follows; a user who already follows a text keeps the row (and its reason) they had. */
export async function addFollows(db: Executor, rows: readonly NewFollowRow[]): Promise<void> {
  if (rows.length === 0) return;
  for (const part of chunks(rows, IDS_PER_QUERY)) {
    await db
      .insertInto('follows')
      .values(part)
      .onConflict((oc) => oc.columns(['workspace_id', 'text_id', 'user_id']).doNothing())
      .execute();
  }
}

export async function removeFollows(
  db: Executor,
  owner: { workspaceId: number; userId: number },
  textIds: readonly number[],
): Promise<void> {
  for (const part of chunks([...new Set(textIds)], IDS_PER_QUERY)) {
    await db
      .deleteFrom('follows')
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', owner.userId)
      .where('text_id', 'in', part)
      .execute();
  }
}

/** Every follow of texts that were deleted. */
export async function forgetTexts(db: Executor, workspaceId: number, textIds: readonly number[]): Promise<void> {
  for (const part of chunks([...new Set(textIds)], IDS_PER_QUERY)) {
    await db.deleteFrom('follows').where('workspace_id', '=', workspaceId).where('text_id', 'in', part).execute();
  }
}

/** The followers (user ids) of each of these texts. */
export async function followersOf(
  db: Executor,
  workspaceId: number,
  textIds: readonly number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  for (const part of chunks([...new Set(textIds)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('follows')
      .select(['text_id', 'user_id'])
      .where('workspace_id', '=', workspaceId)
      .where('text_id', 'in', part)
      .execute();
    for (const row of rows) {
      const list = out.get(row.text_id) ?? [];
      list.push(row.user_id);
      out.set(row.text_id, list);
    }
  }
  return out;
}

/** Whether anyone in the workspace follows anything: a status change in a workspace without follows looks no further. */
export async function hasFollows(db: Executor, workspaceId: number): Promise<boolean> {
  const row = await db
    .selectFrom('follows')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A user's follows, oldest first, after the cursor's id; optionally of one text. */
export async function listFollows(
  db: Executor,
  owner: { workspaceId: number; userId: number },
  page: { textId?: number; afterId?: number; limit: number },
): Promise<FollowRow[]> {
  let query = db
    .selectFrom('follows')
    .selectAll()
    .where('workspace_id', '=', owner.workspaceId)
    .where('user_id', '=', owner.userId);
  if (page.textId !== undefined) query = query.where('text_id', '=', page.textId);
  if (page.afterId !== undefined) query = query.where('id', '>', page.afterId);
  return query.orderBy('id').limit(page.limit).execute();
}

/** Every follow of a workspace, for its backup. */
export function allFollows(db: Executor, workspaceId: number): Promise<FollowRow[]> {
  return db.selectFrom('follows').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}
