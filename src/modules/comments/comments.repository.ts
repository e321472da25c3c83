import { type Insertable, type Selectable, sql } from 'kysely';
import type { CommentsTable, Executor } from '../../db/schema.js';
import { appendAll } from '../../shared/arrays.js';
import type { TextCountRow } from '../texts/index.js';

/** A `comments` row: this module's own; the service answers `CommentRecord`s. */
export type CommentRow = Selectable<CommentsTable>;
export type NewCommentRow = Omit<Insertable<CommentsTable>, 'id' | 'workspace_id'>;

/** A row with its thread's resolution and id (the thread's first comment's). */
export interface ThreadedRow extends CommentRow {
  thread_developer_id: string | null;
  thread_resolved_at: string | null;
  thread_resolved_by: string | null;
}

/** Ids per `in (...)` list: well under both databases' limits on bound parameters. */
const IDS_PER_QUERY = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The workspace's comments (`c`), each joined to its thread's first comment (`t`, none on a first comment). */
const threaded = (db: Executor, workspaceId: number) =>
  db
    .selectFrom('comments as c')
    .leftJoin('comments as t', 't.id', 'c.thread_id')
    .selectAll('c')
    .select([
      't.developer_id as thread_developer_id',
      't.resolved_at as thread_resolved_at',
      't.resolved_by as thread_resolved_by',
    ])
    .where('c.workspace_id', '=', workspaceId);

export interface CommentFilter {
  /** The comments on one text that exists (its row id). */
  textId?: number;
  /** The comments on a deleted text, known by its kind and last developer ID. */
  deletedRecord?: { kind: CommentRow['record_kind']; developerId: string };
  projectId?: number;
  /** A variant's row id, or null for base text. */
  variantId?: number | null;
  threadId?: number;
  authorEmail?: string;
  open?: boolean;
  mentionedEmail?: string;
  afterId?: number;
  limit: number;
}

/** The workspace's comments that pass the filter, oldest first, each with its thread's state. */
export async function listComments(db: Executor, workspaceId: number, filter: CommentFilter): Promise<ThreadedRow[]> {
  let query = threaded(db, workspaceId);
  if (filter.textId !== undefined) query = query.where('c.text_id', '=', filter.textId);
  if (filter.deletedRecord) {
    query = query
      .where('c.record_deleted', '=', 1)
      .where('c.record_kind', '=', filter.deletedRecord.kind)
      .where('c.record_developer_id', '=', filter.deletedRecord.developerId);
  }
  if (filter.projectId !== undefined) query = query.where('c.project_id', '=', filter.projectId);
  if (filter.variantId === null) query = query.where('c.variant_id', 'is', null);
  else if (filter.variantId !== undefined) query = query.where('c.variant_id', '=', filter.variantId);
  if (filter.threadId !== undefined) {
    const threadId = filter.threadId;
    query = query.where((eb) => eb.or([eb('c.id', '=', threadId), eb('c.thread_id', '=', threadId)]));
  }
  if (filter.authorEmail !== undefined) query = query.where('c.author_email', '=', filter.authorEmail);
  if (filter.open !== undefined) {
    // The thread's resolution is its first comment's: the row itself, or the one joined as `t`.
    const resolvedAt = sql`coalesce(t.resolved_at, case when c.thread_id is null then c.resolved_at end)`;
    query = query.where(filter.open ? sql<boolean>`${resolvedAt} is null` : sql<boolean>`${resolvedAt} is not null`);
  }
  if (filter.mentionedEmail !== undefined) {
    const email = filter.mentionedEmail;
    query = query.where('c.id', 'in', (eb) =>
      eb
        .selectFrom('comment_mentions')
        .select('comment_id')
        .where('workspace_id', '=', workspaceId)
        .where('email', '=', email),
    );
  }
  if (filter.afterId !== undefined) query = query.where('c.id', '>', filter.afterId);
  return (await query.orderBy('c.id').limit(filter.limit).execute()) as ThreadedRow[];
}

/** The comments among `developerIds` that exist, with their threads' state; the missing ones are absent. */
export async function findComments(
  db: Executor,
  workspaceId: number,
  developerIds: readonly string[],
): Promise<ThreadedRow[]> {
  const out: ThreadedRow[] = [];
  for (const part of chunks([...new Set(developerIds)], IDS_PER_QUERY)) {
    const rows = await threaded(db, workspaceId).where('c.developer_id', 'in', part).orderBy('c.id').execute();
    appendAll(out, rows as ThreadedRow[]);
  }
  return out;
}

/** The replies of the threads whose first comments are `threadIds` (row ids), oldest first. */
export async function repliesOf(
  db: Executor,
  workspaceId: number,
  threadIds: readonly number[],
): Promise<ThreadedRow[]> {
  const out: ThreadedRow[] = [];
  for (const part of chunks([...new Set(threadIds)], IDS_PER_QUERY)) {
    const rows = await threaded(db, workspaceId).where('c.thread_id', 'in', part).orderBy('c.id').execute();
    appendAll(out, rows as ThreadedRow[]);
  }
  return out;
}

/** Inserts the comments in order and answers their row ids in the same order. */
export async function insertComments(
  db: Executor,
  workspaceId: number,
  rows: readonly NewCommentRow[],
): Promise<number[]> {
  const ids: number[] = [];
  // One statement per comment: a batch of comments is small, and `returning` keeps its order.
  for (const row of rows) {
    const inserted = await db
      .insertInto('comments')
      .values({ ...row, workspace_id: workspaceId })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(inserted.id);
  }
  return ids;
}

/** Replaces the mentions of each comment with `emails`. */
export async function setMentions(
  db: Executor,
  workspaceId: number,
  mentions: readonly { commentId: number; emails: readonly string[] }[],
): Promise<void> {
  const ids = mentions.map((m) => m.commentId);
  for (const part of chunks(ids, IDS_PER_QUERY)) {
    await db.deleteFrom('comment_mentions').where('comment_id', 'in', part).execute();
  }
  const rows = mentions.flatMap((m) =>
    m.emails.map((email) => ({ comment_id: m.commentId, workspace_id: workspaceId, email })),
  );
  for (const part of chunks(rows, IDS_PER_QUERY)) {
    await db.insertInto('comment_mentions').values(part).execute();
  }
}

export async function updateBody(
  db: Executor,
  workspaceId: number,
  edit: { id: number; body: string; mentions: string; editedAt: string },
): Promise<void> {
  await db
    .updateTable('comments')
    .set({ body: edit.body, mentions: edit.mentions, edited_at: edit.editedAt })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', edit.id)
    .execute();
}

/** Sets (or clears, with nulls) the resolution of the threads whose first comments are `ids`. */
export async function setResolution(
  db: Executor,
  workspaceId: number,
  ids: readonly number[],
  resolution: { at: string | null; by: string | null },
): Promise<void> {
  for (const part of chunks(ids, IDS_PER_QUERY)) {
    await db
      .updateTable('comments')
      .set({ resolved_at: resolution.at, resolved_by: resolution.by })
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', part)
      .execute();
  }
}

export async function deleteComments(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids, IDS_PER_QUERY)) {
    await db.deleteFrom('comment_mentions').where('comment_id', 'in', part).execute();
  }
  for (const part of chunks(ids, IDS_PER_QUERY)) {
    await db.deleteFrom('comments').where('workspace_id', '=', workspaceId).where('id', 'in', part).execute();
  }
}

/** Of these text row ids, the ones some comment of the workspace is still on. */
export async function commentedTexts(db: Executor, workspaceId: number, textIds: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  for (const part of chunks([...new Set(textIds)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('comments')
      .select('text_id')
      .distinct()
      .where('workspace_id', '=', workspaceId)
      .where('record_deleted', '=', 0)
      .where('text_id', 'in', part)
      .execute();
    for (const row of rows) if (row.text_id !== null) out.push(row.text_id);
  }
  return out;
}

/** Whether the workspace has any comment: most have none, and a text's deletion then looks no further. */
export async function hasComments(db: Executor, workspaceId: number): Promise<boolean> {
  const row = await db
    .selectFrom('comments')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks the comments of deleted texts, keeping the developer ID each text last had. */
export async function markRecordsDeleted(
  db: Executor,
  workspaceId: number,
  texts: readonly { textId: number; developerId: string }[],
): Promise<void> {
  for (const { textId, developerId } of texts) {
    await db
      .updateTable('comments')
      .set({ record_deleted: 1, record_developer_id: developerId })
      .where('workspace_id', '=', workspaceId)
      .where('text_id', '=', textId)
      .execute();
  }
}

/** Open threads per text that still exists, optionally of one project only. */
export async function openThreadCounts(
  db: Executor,
  workspaceId: number,
  projectId: number | undefined,
): Promise<TextCountRow[]> {
  let query = db
    .selectFrom('comments')
    .select(['record_kind', 'text_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('workspace_id', '=', workspaceId)
    .where('thread_id', 'is', null)
    .where('resolved_at', 'is', null)
    .where('record_deleted', '=', 0);
  if (projectId !== undefined) query = query.where('project_id', '=', projectId);
  return query.groupBy(['record_kind', 'text_id']).execute();
}

/** The people of each thread (by its first comment's row id): its comments' authors and mentions, lowercased. */
export async function threadPeople(
  db: Executor,
  workspaceId: number,
  threadIds: readonly number[],
): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  for (const part of chunks([...new Set(threadIds)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('comments')
      .select(['id', 'thread_id', 'author_email', 'mentions'])
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb.or([eb('id', 'in', part), eb('thread_id', 'in', part)]))
      .execute();
    for (const row of rows) {
      const thread = row.thread_id ?? row.id;
      let people = out.get(thread);
      if (!people) {
        people = new Set();
        out.set(thread, people);
      }
      people.add(row.author_email.toLowerCase());
      for (const email of JSON.parse(row.mentions) as string[]) people.add(email.toLowerCase());
    }
  }
  return out;
}
