import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { idCursor } from '../../shared/cursor.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import { variantNotFoundMessage } from '../../shared/not-found.js';
import { type Change, changeOf, type WritePath, type WriteScope } from '../changes/index.js';
import { countsPerText, developerIdsByRowIds, resolveListScope, type TextKind, textTargets } from '../texts/index.js';
import * as repo from './comments.repository.js';
import {
  type CommentRecord,
  type CommentsQuery,
  type CommentUpdateInput,
  type CountsQuery,
  LIST_MAX_LIMIT,
  type NewCommentInput,
} from './comments.schemas.js';

export type { CommentRecord, CommentsQuery, CommentUpdateInput, CountsQuery, NewCommentInput };

/**
 * Comments on texts (docs/comments.md): threads on a text item or a component, on its base text or
 * one variant's value, with @mentions of the workspace's users. Every write goes through the
 * write path as changes of kind `comment`, so history and webhooks see them like any other write.
 */

/** Who writes a comment: the write's scope, and the user and rights the ownership rules need. */
export interface CommentActor {
  scope: WriteScope;
  userId: number;
  email: string;
  /** Admins edit and delete anyone's comments; everyone else only their own. */
  admin: boolean;
}

/** What the service reads of the modules that own the rows a comment names (src/services.ts hands them). */
export interface CommentsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  variantsOf: (executor: Executor, workspaceId: number) => Promise<readonly { id: number; developerId: string }[]>;
  projectsOf: (executor: Executor, workspaceId: number) => Promise<readonly { id: number; developerId: string }[]>;
  /** The workspace's users' emails, by user id. */
  usersOf: (executor: Executor, workspaceId: number) => Promise<Map<number, string>>;
}

const DEFAULT_LIMIT = 100;
const cursor = idCursor('cm1:');

/**
 * A mention is `@` and an email, not inside a word (so an email address alone mentions no one);
 * the email ends before any character an address cannot end with (`@ana@example.com.` ends at
 * `com`). Matched against the users' emails in any case.
 */
const MENTION = /(?<![A-Za-z0-9._%+@-])@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)/g;

/** The emails a body mentions, lowercased, each once, in order of first mention. */
export function mentionsIn(body: string): string[] {
  const out = new Set<string>();
  for (const match of body.matchAll(MENTION)) out.add((match[1] as string).toLowerCase());
  return [...out];
}

/** A new comment's id: random, so that it says nothing of other workspaces and survives backups. */
const newCommentId = () => `cm_${randomBytes(8).toString('hex')}`;

const identity = (row: { id: number; developer_id: string }) => ({
  kind: 'comment' as const,
  ref: `comment:${row.id}`,
  developerId: row.developer_id,
});

/** A comment as the change log records it: its record fields, without the thread's state. */
const loggedFields = (c: CommentRecord) => ({
  threadId: c.threadId,
  textItemId: c.textItemId,
  componentId: c.componentId,
  projectId: c.projectId,
  variantId: c.variantId,
  author: c.author,
  body: c.body,
  mentions: c.mentions,
  range: c.range,
});

/** What the notifications read of a comment (src/services.ts hands it over): its text and its thread's people. */
export interface CommentNotice {
  commentId: string;
  threadId: string;
  /** Whether the comment replies to a thread (rather than starting it). */
  reply: boolean;
  recordKind: TextKind;
  /** The text's row id, and its developer ID when the comment was written (its last, once deleted). */
  textId: number | null;
  recordDeveloperId: string;
  /** Row id of a text item's project. */
  projectId: number | null;
  variantId: string | null;
  /** Everyone in the thread, lowercased emails: the authors of its comments and the users they mention. */
  threadPeople: readonly string[];
}

/** The comments named (by id) as the notifications need them; missing ones are left out. */
export async function commentNotices(
  executor: Executor,
  workspaceId: number,
  commentIds: readonly string[],
): Promise<CommentNotice[]> {
  if (commentIds.length === 0) return [];
  const rows = await repo.findComments(executor, workspaceId, commentIds);
  const people = await repo.threadPeople(
    executor,
    workspaceId,
    rows.map((r) => r.thread_id ?? r.id),
  );
  return rows.map((r) => ({
    commentId: r.developer_id,
    threadId: r.thread_developer_id ?? r.developer_id,
    reply: r.thread_id !== null,
    recordKind: r.record_kind,
    textId: r.text_id,
    recordDeveloperId: r.record_developer_id,
    projectId: r.project_id,
    variantId: r.variant_developer_id,
    threadPeople: [...(people.get(r.thread_id ?? r.id) ?? [])],
  }));
}

export function createCommentsService(deps: CommentsDeps) {
  const { db, writes } = deps;

  /** Rows as the API shows them: the texts', projects' and variants' developer IDs as they are now. */
  async function present(executor: Executor, workspaceId: number, rows: readonly repo.ThreadedRow[]) {
    if (rows.length === 0) return [];
    const live = rows.filter((r) => r.record_deleted === 0 && r.text_id !== null).map((r) => r.text_id as number);
    const texts = await developerIdsByRowIds(executor, workspaceId, live);
    const projects = rows.some((r) => r.project_id !== null)
      ? new Map((await deps.projectsOf(executor, workspaceId)).map((p) => [p.id, p.developerId]))
      : new Map<number, string>();
    const variants = rows.some((r) => r.variant_id !== null)
      ? new Map((await deps.variantsOf(executor, workspaceId)).map((v) => [v.id, v.developerId]))
      : new Map<number, string>();
    return rows.map((r): CommentRecord => {
      const alive = r.record_deleted === 0 && r.text_id !== null && texts.has(r.text_id);
      const recordId = alive ? (texts.get(r.text_id as number) as string) : r.record_developer_id;
      const first = r.thread_id === null;
      const resolvedAt = first ? r.resolved_at : r.thread_resolved_at;
      return {
        id: r.developer_id,
        threadId: first ? r.developer_id : (r.thread_developer_id ?? r.developer_id),
        textItemId: r.record_kind === 'text_item' ? recordId : null,
        componentId: r.record_kind === 'component' ? recordId : null,
        projectId: r.project_id === null ? null : (projects.get(r.project_id) ?? null),
        variantId: r.variant_id === null ? null : (variants.get(r.variant_id) ?? r.variant_developer_id),
        recordDeleted: !alive,
        body: r.body,
        mentions: JSON.parse(r.mentions) as string[],
        range:
          r.range_start === null || r.range_end === null
            ? null
            : { start: r.range_start, end: r.range_end, quote: r.range_quote ?? '' },
        author: r.author_email,
        createdAt: r.created_at,
        editedAt: r.edited_at,
        resolved: resolvedAt !== null,
        resolvedAt,
        resolvedBy: first ? r.resolved_by : r.thread_resolved_by,
      };
    });
  }

  /** Every mention must name a user of the workspace: a 400 naming the element's body otherwise. */
  async function checkMentions(
    executor: Executor,
    workspaceId: number,
    mentions: readonly (readonly string[])[],
    path: (index: number) => string,
  ) {
    if (mentions.every((m) => m.length === 0)) return;
    const users = new Set([...(await deps.usersOf(executor, workspaceId)).values()].map((e) => e.toLowerCase()));
    mentions.forEach((emails, index) => {
      const stranger = emails.find((email) => !users.has(email));
      if (stranger !== undefined) {
        throw badRequest(`${path(index)}: mentions ${stranger}, who is not a user of this workspace`);
      }
    });
  }

  /** The comments named, in order; an unknown id is a 404 naming its element. */
  async function requireComments(
    executor: Executor,
    workspaceId: number,
    ids: readonly string[],
    path: (index: number) => string,
  ) {
    const byId = new Map((await repo.findComments(executor, workspaceId, ids)).map((r) => [r.developer_id, r]));
    return ids.map((id, index) => {
      const row = byId.get(id);
      if (!row) throw notFound(`${path(index)}: Comment ${id} not found`);
      return row;
    });
  }

  function assertMayChange(actor: CommentActor, row: repo.ThreadedRow, path: string, what: string) {
    if (actor.admin || row.author_id === actor.userId) return;
    throw forbidden(
      `${path}: comment ${row.developer_id} is ${row.author_email}'s; only its author or an admin may ${what} it`,
    );
  }

  /** The shape rules a schema cannot say, checked for the whole batch before anything is read. */
  function checkNew(input: NewCommentInput, path: string) {
    if (input.threadId !== undefined) {
      for (const field of ['textItemId', 'componentId', 'variantId', 'range'] as const) {
        if (input[field] !== undefined) {
          throw badRequest(`${path}.${field}: a reply takes its text from its thread; leave ${field} out`);
        }
      }
    } else if (input.textItemId === undefined && input.componentId === undefined) {
      throw badRequest(
        `${path}.textItemId: a new thread names its text (textItemId or componentId); a reply names its threadId`,
      );
    } else if (input.textItemId !== undefined && input.componentId !== undefined) {
      throw badRequest(`${path}.componentId: name one text, textItemId or componentId, not both`);
    }
    checkBody(input.body, `${path}.body`);
    if (input.range && input.range.end < input.range.start) {
      throw badRequest(`${path}.range.end: must not be before range.start (${input.range.start})`);
    }
  }

  function checkBody(body: string, path: string) {
    if (body.trim() === '') throw badRequest(`${path}: must not be blank`);
  }

  /** Creates all the comments or none; answers their ids in request order. */
  async function create(actor: CommentActor, inputs: readonly NewCommentInput[]): Promise<string[]> {
    const { workspaceId } = actor.scope;
    inputs.forEach((input, index) => {
      checkNew(input, `comments[${index}]`);
    });
    const mentions = inputs.map((input) => mentionsIn(input.body));
    return writes.write(actor.scope, async (trx) => {
      await checkMentions(trx, workspaceId, mentions, (index) => `comments[${index}].body`);
      const targetOf = await textTargets(trx, workspaceId, { inputs, variantsOf: deps.variantsOf });
      const threadIds = inputs.flatMap((input) => (input.threadId === undefined ? [] : [input.threadId]));
      const threads = new Map((await repo.findComments(trx, workspaceId, threadIds)).map((r) => [r.developer_id, r]));
      const at = now();
      const rows = inputs.map((input, index): repo.NewCommentRow => {
        const path = `comments[${index}]`;
        const own = {
          developer_id: newCommentId(),
          author_id: actor.userId,
          author_email: actor.email.toLowerCase(),
          body: input.body,
          mentions: JSON.stringify(mentions[index]),
          created_at: at,
        };
        if (input.threadId !== undefined) {
          const thread = threads.get(input.threadId);
          if (!thread) throw notFound(`${path}.threadId: Comment thread ${input.threadId} not found`);
          if (thread.thread_id !== null) {
            throw badRequest(
              `${path}.threadId: ${input.threadId} is a reply; name its thread, ${thread.thread_developer_id}`,
            );
          }
          if (thread.record_deleted === 1) {
            throw conflict(
              `${path}.threadId: the text of thread ${input.threadId} was deleted; its threads take no more replies`,
            );
          }
          return {
            ...own,
            thread_id: thread.id,
            record_kind: thread.record_kind,
            text_id: thread.text_id,
            record_developer_id: thread.record_developer_id,
            project_id: thread.project_id,
            variant_id: thread.variant_id,
            variant_developer_id: thread.variant_developer_id,
          };
        }
        const { text, variantId } = targetOf(input, path);
        return {
          ...own,
          thread_id: null,
          record_kind: text.kind,
          text_id: text.id,
          record_developer_id: text.developerId,
          project_id: text.kind === 'text_item' ? text.projectId : null,
          variant_id: variantId,
          variant_developer_id: input.variantId ?? null,
          range_start: input.range?.start ?? null,
          range_end: input.range?.end ?? null,
          range_quote: input.range?.quote ?? null,
        };
      });
      const ids = await repo.insertComments(trx, workspaceId, rows);
      await repo.setMentions(
        trx,
        workspaceId,
        ids.map((commentId, index) => ({ commentId, emails: mentions[index] as string[] })),
      );
      const created = await present(
        trx,
        workspaceId,
        await repo.findComments(
          trx,
          workspaceId,
          rows.map((r) => r.developer_id),
        ),
      );
      const byId = new Map(created.map((c) => [c.id, c]));
      const changes = rows.map((row, index) => {
        const record = byId.get(row.developer_id) as CommentRecord;
        return changeOf(
          identity({ id: ids[index] as number, developer_id: row.developer_id }),
          null,
          loggedFields(record),
        ) as Change;
      });
      return { changes, result: rows.map((r) => r.developer_id) };
    });
  }

  /** Edits the bodies, all or none: one's own comments, or anyone's for an admin. */
  async function update(actor: CommentActor, updates: readonly CommentUpdateInput[]): Promise<void> {
    const { workspaceId } = actor.scope;
    assertDistinctIds(
      updates.map((u) => u.id),
      (index) => `updates[${index}].id`,
      'comment id',
    );
    updates.forEach((u, index) => {
      checkBody(u.body, `updates[${index}].body`);
    });
    const mentions = updates.map((u) => mentionsIn(u.body));
    await writes.write(actor.scope, async (trx) => {
      const rows = await requireComments(
        trx,
        workspaceId,
        updates.map((u) => u.id),
        (index) => `updates[${index}].id`,
      );
      rows.forEach((row, index) => {
        assertMayChange(actor, row, `updates[${index}].id`, 'edit');
      });
      await checkMentions(trx, workspaceId, mentions, (index) => `updates[${index}].body`);
      const before = await present(trx, workspaceId, rows);
      const planned = rows.flatMap((row, index) => {
        const was = before[index] as CommentRecord;
        const is = { ...was, body: (updates[index] as CommentUpdateInput).body, mentions: mentions[index] as string[] };
        const change = changeOf(identity(row), loggedFields(was), loggedFields(is));
        return change ? [{ row, change, is }] : [];
      });
      const at = now();
      return {
        changes: planned.map((p) => p.change),
        apply: async (trx) => {
          for (const { row, is } of planned) {
            await repo.updateBody(trx, workspaceId, {
              id: row.id,
              body: is.body,
              mentions: JSON.stringify(is.mentions),
              editedAt: at,
            });
          }
          await repo.setMentions(
            trx,
            workspaceId,
            planned.map((p) => ({ commentId: p.row.id, emails: p.is.mentions })),
          );
        },
        result: undefined,
      };
    });
  }

  /** Resolves (or reopens) threads, named by their first comments; a thread already so is left as it is. */
  async function setResolved(actor: CommentActor, threadIds: readonly string[], resolved: boolean): Promise<void> {
    const { workspaceId } = actor.scope;
    assertDistinctIds(threadIds, (index) => `threadIds[${index}]`, 'thread id');
    await writes.write(actor.scope, async (trx) => {
      const rows = await requireComments(trx, workspaceId, threadIds, (index) => `threadIds[${index}]`);
      rows.forEach((row, index) => {
        if (row.thread_id !== null) {
          throw badRequest(
            `threadIds[${index}]: ${row.developer_id} is a reply; name its thread, ${row.thread_developer_id}`,
          );
        }
      });
      const changing = rows.filter((row) => (row.resolved_at !== null) !== resolved);
      const by = resolved ? actor.scope.actor.email : null;
      const changes = changing.map(
        (row) =>
          changeOf(
            identity(row),
            { resolved: !resolved, resolvedBy: row.resolved_by },
            { resolved, resolvedBy: by },
            resolved ? 'resolved' : 'reopened',
          ) as Change,
      );
      return {
        changes,
        apply: (trx) =>
          repo.setResolution(
            trx,
            workspaceId,
            changing.map((r) => r.id),
            { at: resolved ? now() : null, by },
          ),
        result: undefined,
      };
    });
  }

  /** Deletes comments, all or none; a thread's first comment takes its whole thread with it. */
  async function remove(actor: CommentActor, ids: readonly string[]): Promise<void> {
    const { workspaceId } = actor.scope;
    assertDistinctIds(ids, (index) => `ids[${index}]`, 'comment id');
    await writes.write(actor.scope, async (trx) => {
      const rows = await requireComments(trx, workspaceId, ids, (index) => `ids[${index}]`);
      rows.forEach((row, index) => {
        assertMayChange(actor, row, `ids[${index}]`, 'delete');
      });
      const firsts = rows.filter((r) => r.thread_id === null).map((r) => r.id);
      const all = new Map<number, repo.ThreadedRow>();
      for (const row of [...rows, ...(await repo.repliesOf(trx, workspaceId, firsts))]) all.set(row.id, row);
      const gone = [...all.values()].sort((a, b) => a.id - b.id);
      const records = await present(trx, workspaceId, gone);
      const changes = gone.map(
        (row, index) => changeOf(identity(row), loggedFields(records[index] as CommentRecord), null) as Change,
      );
      return {
        changes,
        apply: (trx) =>
          repo.deleteComments(
            trx,
            workspaceId,
            gone.map((r) => r.id),
          ),
        result: undefined,
      };
    });
  }

  /** GET /v2/comments: a page of the comments the query selects, oldest first. */
  async function list(
    reader: { workspaceId: number; email: string },
    query: CommentsQuery,
  ): Promise<{ comments: CommentRecord[]; nextCursor: string | null }> {
    const { workspaceId } = reader;
    const scope = await resolveListScope(db, workspaceId, query, {
      defaultLimit: DEFAULT_LIMIT,
      maxLimit: LIST_MAX_LIMIT,
      cursor,
      hasDeletedRecord: async (deletedRecord) =>
        (await repo.listComments(db, workspaceId, { deletedRecord, limit: 1 })).length > 0,
      projectsOf: () => deps.projectsOf(db, workspaceId),
    });
    const { limit } = scope;
    const filter: repo.CommentFilter = scope.filter;
    if (query.variantId !== undefined) {
      if (query.variantId === 'base') {
        filter.variantId = null;
      } else {
        const variant = (await deps.variantsOf(db, workspaceId)).find((v) => v.developerId === query.variantId);
        if (!variant) throw badRequest(`variantId: ${variantNotFoundMessage(query.variantId)}`);
        filter.variantId = variant.id;
      }
    }
    if (query.threadId !== undefined) {
      const [thread] = await repo.findComments(db, workspaceId, [query.threadId]);
      if (!thread) throw badRequest(`threadId: Comment thread ${query.threadId} not found`);
      if (thread.thread_id !== null) {
        throw badRequest(`threadId: ${query.threadId} is a reply; name its thread, ${thread.thread_developer_id}`);
      }
      filter.threadId = thread.id;
    }
    if (query.author !== undefined) filter.authorEmail = query.author.trim().toLowerCase();
    if (query.open !== undefined) filter.open = query.open;
    if (query.mentions === 'me') filter.mentionedEmail = reader.email.toLowerCase();
    const rows = await repo.listComments(db, workspaceId, filter);
    const { page, nextCursor } = cursor.page(rows, limit);
    return { comments: await present(db, workspaceId, page), nextCursor };
  }

  /** GET /v2/comments/{id}. */
  async function get(workspaceId: number, id: string): Promise<CommentRecord> {
    const rows = await repo.findComments(db, workspaceId, [id]);
    if (rows.length === 0) throw notFound(`Comment ${id} not found`);
    return (await present(db, workspaceId, rows))[0] as CommentRecord;
  }

  /** GET /v2/comments/counts: open threads per text that has any. */
  function counts(workspaceId: number, query: CountsQuery) {
    return countsPerText(db, workspaceId, query, {
      projectsOf: () => deps.projectsOf(db, workspaceId),
      countRows: (projectId) => repo.openThreadCounts(db, workspaceId, projectId),
    });
  }

  // A text's deletion keeps its comments, stamped with the developer ID it last had, in the
  // deletion's own transaction. A write that deletes no text, or in a workspace without comments,
  // costs a look over its changes and at most one indexed read.
  writes.subscribe(async (trx, scope, changes) => {
    const deleted: { textId: number; developerId: string }[] = [];
    for (const change of changes) {
      if (change.action !== 'deleted' || change.variantId !== null) continue;
      if (change.kind !== 'textItem' && change.kind !== 'component') continue;
      const rowId = Number(change.ref.slice(change.ref.indexOf(':') + 1));
      if (Number.isSafeInteger(rowId)) deleted.push({ textId: rowId, developerId: change.developerId });
    }
    if (deleted.length === 0 || !(await repo.hasComments(trx, scope.workspaceId))) return;
    const commented = new Set(
      await repo.commentedTexts(
        trx,
        scope.workspaceId,
        deleted.map((d) => d.textId),
      ),
    );
    await repo.markRecordsDeleted(
      trx,
      scope.workspaceId,
      deleted.filter((d) => commented.has(d.textId)),
    );
  });

  return { create, update, setResolved, remove, list, get, counts };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
