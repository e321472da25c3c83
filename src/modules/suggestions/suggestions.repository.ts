import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor, SuggestionsTable } from '../../db/schema.js';
import { appendAll } from '../../shared/arrays.js';
import type { TextCountRow } from '../texts/index.js';

/** A `suggestions` row: this module's own; the service answers `SuggestionRecord`s. */
export type SuggestionRow = Selectable<SuggestionsTable>;
export type NewSuggestionRow = Omit<Insertable<SuggestionsTable>, 'id' | 'workspace_id'>;
export type SuggestionStatus = SuggestionRow['status'];

/** Ids per `in (...)` list: well under both databases' limits on bound parameters. */
const IDS_PER_QUERY = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface SuggestionFilter {
  /** The suggestions on one text (its row id). */
  textId?: number;
  /** The suggestions on a deleted text, known by its kind and last developer ID. */
  deletedRecord?: { kind: SuggestionRow['record_kind']; developerId: string };
  projectId?: number;
  authorEmail?: string;
  statuses?: readonly SuggestionStatus[];
  afterId?: number;
  limit: number;
}

/** The workspace's suggestions that pass the filter, oldest first. */
export async function listSuggestions(
  db: Executor,
  workspaceId: number,
  filter: SuggestionFilter,
): Promise<SuggestionRow[]> {
  let query = db.selectFrom('suggestions').selectAll().where('workspace_id', '=', workspaceId);
  if (filter.textId !== undefined) query = query.where('text_id', '=', filter.textId);
  if (filter.deletedRecord) {
    query = query
      .where('text_id', 'is', null)
      .where('record_kind', '=', filter.deletedRecord.kind)
      .where('record_developer_id', '=', filter.deletedRecord.developerId);
  }
  if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
  if (filter.authorEmail !== undefined) query = query.where('author_email', '=', filter.authorEmail);
  if (filter.statuses !== undefined) query = query.where('status', 'in', [...filter.statuses]);
  if (filter.afterId !== undefined) query = query.where('id', '>', filter.afterId);
  return query.orderBy('id').limit(filter.limit).execute();
}

/** The suggestions among `developerIds` that exist; the missing ones are absent. */
export async function findSuggestions(
  db: Executor,
  workspaceId: number,
  developerIds: readonly string[],
): Promise<SuggestionRow[]> {
  const out: SuggestionRow[] = [];
  for (const part of chunks([...new Set(developerIds)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('suggestions')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('developer_id', 'in', part)
      .orderBy('id')
      .execute();
    appendAll(out, rows);
  }
  return out;
}

/** Inserts the suggestions in order and answers their row ids in the same order. */
export async function insertSuggestions(
  db: Executor,
  workspaceId: number,
  rows: readonly NewSuggestionRow[],
): Promise<number[]> {
  const ids: number[] = [];
  // One statement per suggestion: a batch is small, and `returning` keeps its order.
  for (const row of rows) {
    const inserted = await db
      .insertInto('suggestions')
      .values({ ...row, workspace_id: workspaceId })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(inserted.id);
  }
  return ids;
}

/** Sets the columns of one suggestion (its status and decision, or a rebase's new base). */
export async function updateSuggestion(
  db: Executor,
  workspaceId: number,
  id: number,
  set: Updateable<SuggestionsTable>,
): Promise<void> {
  await db.updateTable('suggestions').set(set).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** Undecided (open or stale) suggestions per text that still exists, optionally of one project only. */
export async function pendingCounts(
  db: Executor,
  workspaceId: number,
  projectId: number | undefined,
): Promise<TextCountRow[]> {
  let query = db
    .selectFrom('suggestions')
    .select(['record_kind', 'text_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('workspace_id', '=', workspaceId)
    .where('status', 'in', ['open', 'stale'])
    .where('text_id', 'is not', null);
  if (projectId !== undefined) query = query.where('project_id', '=', projectId);
  return query.groupBy(['record_kind', 'text_id']).execute();
}

/** Whether the workspace has any suggestion: most have none, and a text's deletion then looks no further. */
export async function hasSuggestions(db: Executor, workspaceId: number): Promise<boolean> {
  const row = await db
    .selectFrom('suggestions')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The suggestions of deleted texts: each keeps the developer ID its text last had and no longer
 * its row id (so `text_id` null means "the text is gone"); the open and stale ones close as
 * `obsolete`. Answers nothing: the text's deletion is the change history records.
 */
export async function closeDeletedTexts(
  db: Executor,
  workspaceId: number,
  texts: readonly { textId: number; developerId: string }[],
  at: string,
): Promise<void> {
  for (const { textId, developerId } of texts) {
    await db
      .updateTable('suggestions')
      .set({ status: 'obsolete', decided_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('text_id', '=', textId)
      .where('status', 'in', ['open', 'stale'])
      .execute();
    await db
      .updateTable('suggestions')
      .set({ record_developer_id: developerId, text_id: null })
      .where('workspace_id', '=', workspaceId)
      .where('text_id', '=', textId)
      .execute();
  }
}
