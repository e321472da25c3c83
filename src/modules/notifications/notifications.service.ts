/**
 * In-app notifications (docs/notifications.md). Read top-down: what the service takes, the
 * subscriber that turns a write's changes into notifications inside the write's transaction (who
 * is told of what), then the API's reads and marks, then follows.
 *
 * Notifications and follows are each user's own state, not the workspace's content: marking read
 * or following a text does not go through the write path, makes no revision and no history.
 */

import type { Kysely, Transaction } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { idCursor } from '../../shared/cursor.js';
import type { Change, WritePath, WriteScope } from '../changes/index.js';
import type { CommentNotice } from '../comments/comments.service.js';
import {
  developerIdsByRowIds,
  loadTextsByDeveloperIds,
  loadTextsByRowIds,
  type TextEntity,
  type TextKind,
} from '../texts/index.js';
import * as repo from './notifications.repository.js';
import {
  type FollowInput,
  type FollowRecord,
  type FollowsQuery,
  LIST_MAX_LIMIT,
  type NotificationKind,
  type NotificationRecord,
  type NotificationsQuery,
  type ReadInput,
} from './notifications.schemas.js';

export {
  emailNotifications,
  type MadeNotification,
  notificationEmail,
  type QueueEmail,
} from './notifications.email.js';

import type { MadeNotification } from './notifications.email.js';

export type { FollowInput, FollowRecord, FollowsQuery, NotificationRecord, NotificationsQuery, ReadInput };

export interface NotificationsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  /** The workspace's users' emails, by user id. */
  usersOf: (executor: Executor, workspaceId: number) => Promise<Map<number, string>>;
  /** Developer IDs of the workspace's projects and bases, by row id. */
  projectsOf: (executor: Executor, workspaceId: number) => Promise<Map<number, string>>;
  /** The comments a write created or edited, with their texts and threads' people. */
  commentNotices: (executor: Executor, workspaceId: number, commentIds: readonly string[]) => Promise<CommentNotice[]>;
  /**
   * Told of every notification made, in the same transaction: the email hook. Without one (no
   * mail module wired), notifications are in-app only.
   */
  onNotified?: (trx: Transaction<Database>, made: readonly MadeNotification[]) => Promise<void>;
}

/** Whose notifications: the caller's user in the caller's workspace. */
export interface Owner {
  workspaceId: number;
  userId: number;
}

const DEFAULT_LIMIT = 50;
const DEFAULT_FOLLOWS_LIMIT = 100;
const cursor = idCursor('nt1:');
const followsCursor = idCursor('fo1:');

const TEXT_KINDS: Partial<Record<string, TextKind>> = { textItem: 'text_item', component: 'component' };

/** The row id a text change's ref names (`textItem:42`). */
const rowIdOf = (ref: string) => {
  const id = Number(ref.slice(ref.indexOf(':') + 1));
  return Number.isSafeInteger(id) ? id : null;
};

const enc = encodeURIComponent;

/**
 * The app's path to the text, as web/src/routes.ts builds it (`textUrl`, `componentUrl`), with
 * the variant the notification is about (the lists' `variant` filter) and the comment thread.
 */
export function appLink(n: {
  textItemId: string | null;
  componentId: string | null;
  projectId: string | null;
  variantId: string | null;
  threadId: string | null;
  /** The suggestion to focus, as the app reads `?suggestion=`. */
  suggestionId?: string | null;
}): string {
  const path =
    n.componentId !== null
      ? `/library/components/${enc(n.componentId)}`
      : n.projectId !== null
        ? `/projects/${enc(n.projectId)}/texts/${enc(n.textItemId ?? '')}`
        : '/search';
  const query = [
    ...(n.variantId === null ? [] : [`variant=${enc(n.variantId)}`]),
    ...(n.threadId === null ? [] : [`thread=${enc(n.threadId)}`]),
    ...(n.suggestionId == null ? [] : [`suggestion=${enc(n.suggestionId)}`]),
  ];
  return query.length === 0 ? path : `${path}?${query.join('&')}`;
}

const fieldAfter = (change: Change, name: string) => change.fields[name]?.after;
const fieldBefore = (change: Change, name: string) => change.fields[name]?.before;
const asString = (value: unknown) => (typeof value === 'string' ? value : null);
const asStrings = (value: unknown) => (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : []);

/** What a write's changes ask of the notifications, found by one look over them. */
interface Scan {
  commentsCreated: Change[];
  commentsEdited: Change[];
  created: { textId: number; kind: TextKind }[];
  assigned: { change: Change; textId: number; kind: TextKind; email: string }[];
  statuses: { change: Change; textId: number; kind: TextKind; from: string; to: string }[];
  suggestions: Change[];
  /** Suggestions accepted or rejected: their authors are told. */
  decisions: Change[];
  deleted: number[];
}

function scan(changes: readonly Change[]): Scan | null {
  const out: Scan = {
    commentsCreated: [],
    commentsEdited: [],
    created: [],
    assigned: [],
    statuses: [],
    suggestions: [],
    decisions: [],
    deleted: [],
  };
  let any = false;
  for (const change of changes) {
    // A kind other branches of the log add (suggestions) is matched by its name.
    const kind: string = change.kind;
    if (kind === 'comment') {
      if (change.action === 'created') out.commentsCreated.push(change);
      else if (change.action === 'updated' && change.fields.mentions !== undefined) out.commentsEdited.push(change);
      else continue;
      any = true;
      continue;
    }
    if (kind === 'suggestion') {
      if (change.action === 'created') {
        out.suggestions.push(change);
        any = true;
      } else if ((change.action === 'accepted' || change.action === 'rejected') && fieldAfter(change, 'suggestedBy')) {
        out.decisions.push(change);
        any = true;
      }
      continue;
    }
    const textKind = TEXT_KINDS[kind];
    if (textKind === undefined) continue;
    const textId = rowIdOf(change.ref);
    if (textId === null) continue;
    if (change.action === 'deleted') {
      if (change.variantId === null) {
        out.deleted.push(textId);
        any = true;
      }
      continue;
    }
    if (change.action === 'created' && change.variantId === null) {
      out.created.push({ textId, kind: textKind });
      any = true;
    }
    const assignee = asString(fieldAfter(change, 'assignee'));
    if (assignee !== null && assignee !== fieldBefore(change, 'assignee')) {
      out.assigned.push({ change, textId, kind: textKind, email: assignee.toLowerCase() });
      any = true;
    }
    const from = asString(fieldBefore(change, 'status'));
    const to = asString(fieldAfter(change, 'status'));
    if (change.action !== 'created' && from !== null && to !== null && from !== to) {
      out.statuses.push({ change, textId, kind: textKind, from, to });
      any = true;
    }
  }
  return any ? out : null;
}

export function createNotificationsService(deps: NotificationsDeps) {
  const { db, writes } = deps;

  /** The notifications a write makes, and the follows it adds, in its transaction. */
  async function onChanges(trx: Transaction<Database>, scope: WriteScope, changes: readonly Change[], at: string) {
    const found = scan(changes);
    if (!found) return;
    const { workspaceId } = scope;
    if (found.deleted.length > 0) await repo.forgetTexts(trx, workspaceId, found.deleted);
    const needsUsers =
      found.commentsCreated.length +
        found.commentsEdited.length +
        found.created.length +
        found.assigned.length +
        found.statuses.length +
        found.suggestions.length +
        found.decisions.length >
      0;
    if (!needsUsers) return;
    const emails = await deps.usersOf(trx, workspaceId);
    const idOf = new Map([...emails].map(([id, email]) => [email.toLowerCase(), id]));
    const actor = scope.actor.email.toLowerCase();
    const actorId = idOf.get(actor);
    const made: repo.NewNotificationRow[] = [];
    const excerpts: (string | null)[] = [];
    const notify = (
      recipients: Iterable<number>,
      row: Omit<repo.NewNotificationRow, 'user_id' | 'workspace_id' | 'actor' | 'at'>,
      excerpt: string | null = null,
    ) => {
      for (const userId of new Set(recipients)) {
        if (userId === actorId) continue; // never the actor of their own change
        made.push({ ...row, user_id: userId, workspace_id: workspaceId, actor, at });
        excerpts.push(excerpt);
      }
    };
    const usersOfEmails = (list: Iterable<string>) =>
      [...list].flatMap((email) => {
        const id = idOf.get(email.toLowerCase());
        return id === undefined ? [] : [id];
      });

    // Status changes go to the texts' followers as they were before this write (the follows this
    // write adds come last), assignments to the new assignee; the actor is never told.
    const followers =
      found.statuses.length > 0 && (await repo.hasFollows(trx, workspaceId))
        ? await repo.followersOf(
            trx,
            workspaceId,
            found.statuses.map((s) => s.textId),
          )
        : new Map<number, number[]>();
    const told = (users: readonly number[]) => users.some((id) => id !== actorId);
    const statuses = found.statuses.filter((s) => told(followers.get(s.textId) ?? []));
    const assigned = found.assigned.filter((a) => told(usersOfEmails([a.email])));
    // Only the text items among them are read, for their projects (the change names only the text).
    const textRefs = [...assigned, ...statuses]
      .filter((t) => t.kind === 'text_item')
      .map((t) => ({ id: t.textId, kind: t.kind }));
    const texts = await loadByRefs(trx, workspaceId, textRefs);
    const projects =
      textRefs.length +
        found.suggestions.length +
        found.decisions.length +
        found.commentsCreated.length +
        found.commentsEdited.length >
      0
        ? await deps.projectsOf(trx, workspaceId)
        : new Map<number, string>();
    const projectOf = (text: TextEntity | undefined) =>
      text?.kind === 'text_item' ? (projects.get(text.projectId) ?? null) : null;

    // Comments: the users a comment mentions, and everyone else in the thread it replies to.
    const commentChanges = [...found.commentsCreated, ...found.commentsEdited];
    if (commentChanges.length > 0) {
      const notices = new Map(
        (
          await deps.commentNotices(
            trx,
            workspaceId,
            commentChanges.map((c) => c.developerId),
          )
        ).map((n) => [n.commentId, n]),
      );
      for (const change of commentChanges) {
        const notice = notices.get(change.developerId);
        if (!notice) continue;
        const created = change.action === 'created';
        const mentioned = asStrings(fieldAfter(change, 'mentions')).map((e) => e.toLowerCase());
        const before = new Set(created ? [] : asStrings(fieldBefore(change, 'mentions')).map((e) => e.toLowerCase()));
        const record = {
          record_kind: notice.recordKind,
          text_id: notice.textId,
          record_developer_id: notice.recordDeveloperId,
          project_developer_id: notice.projectId === null ? null : (projects.get(notice.projectId) ?? null),
          variant_developer_id: notice.variantId,
          thread_id: notice.threadId,
          comment_id: notice.commentId,
          detail: null,
        };
        const body = asString(fieldAfter(change, 'body'));
        const newlyMentioned = mentioned.filter((e) => !before.has(e));
        notify(usersOfEmails(newlyMentioned), { ...record, kind: 'mention' }, body);
        if (created && notice.reply) {
          const others = notice.threadPeople.filter((e) => !mentioned.includes(e));
          notify(usersOfEmails(others), { ...record, kind: 'reply' }, body);
        }
      }
    }

    for (const s of statuses) {
      notify(followers.get(s.textId) ?? [], {
        kind: 'status',
        record_kind: s.kind,
        text_id: s.textId,
        record_developer_id: s.change.developerId,
        project_developer_id: projectOf(texts.get(s.textId)),
        variant_developer_id: s.change.variantId,
        thread_id: null,
        comment_id: null,
        detail: JSON.stringify({ from: s.from, to: s.to }),
      });
    }

    // Assignments: the new assignee is told (and follows the text from now on, below).
    for (const a of assigned) {
      notify(usersOfEmails([a.email]), {
        kind: 'assigned',
        record_kind: a.kind,
        text_id: a.textId,
        record_developer_id: a.change.developerId,
        project_developer_id: projectOf(texts.get(a.textId)),
        variant_developer_id: a.change.variantId,
        thread_id: null,
        comment_id: null,
        detail: null,
      });
    }

    // Suggestions on a text: its assignee, else its followers; a decision: the suggestion's author.
    if (found.suggestions.length + found.decisions.length > 0) {
      await suggestionNotices(trx, { workspaceId, found, notify, projects, usersOfEmails });
    }

    // The default follows: the creator of each new text, each new assignee. A new text has no
    // follows yet, so its rows are inserted in bulk (an import of 10,000 keys makes 10,000); an
    // existing text's assignee may already follow it, and keeps the row they had.
    const fresh = new Map<string, repo.NewFollowRow>();
    const existing: repo.NewFollowRow[] = [];
    const created = new Set(found.created.map((c) => c.textId));
    const follow = (userId: number, text: { textId: number; kind: TextKind }, reason: string) => {
      const row = {
        workspace_id: workspaceId,
        user_id: userId,
        record_kind: text.kind,
        text_id: text.textId,
        reason,
        created_at: at,
      };
      const key = `${text.textId}:${userId}`;
      if (!created.has(text.textId)) existing.push(row);
      else if (!fresh.has(key)) fresh.set(key, row);
    };
    if (actorId !== undefined) for (const c of found.created) follow(actorId, c, 'created');
    for (const a of found.assigned) {
      const userId = idOf.get(a.email);
      if (userId !== undefined) follow(userId, a, 'assigned');
    }
    await repo.insertFollows(trx, [...fresh.values()]);
    await repo.addFollows(trx, existing);

    if (made.length === 0) return;
    const ids = await repo.insertNotifications(trx, made);
    if (deps.onNotified) {
      await deps.onNotified(
        trx,
        made.map((row, index) => ({
          id: ids[index] as number,
          workspaceId,
          userId: row.user_id,
          email: emails.get(row.user_id) as string,
          record: presentRow({ ...row, id: ids[index] as number, read_at: null } as repo.NotificationRow, null),
          excerpt: excerpts[index] ?? null,
        })),
      );
    }
  }

  /**
   * The rules for suggestions (change kind `suggestion`). The change names its text as comments do
   * (`textItemId` or `componentId`, optionally `variantId`). A new one (`created`) tells the text's
   * assignee, who answers for it, or, on a text assigned to no one, the text's followers (its
   * creator follows it by default); the email quotes the proposed text and the note. A decision
   * (`accepted`, forced or not, or `rejected` with its note) tells the suggestion's author
   * (`suggestedBy`), as `suggestion_decided`. The actor is never told (`notify` drops them).
   */
  async function suggestionNotices(
    trx: Transaction<Database>,
    input: {
      workspaceId: number;
      found: Scan;
      notify: (
        recipients: Iterable<number>,
        row: Omit<repo.NewNotificationRow, 'user_id' | 'workspace_id' | 'actor' | 'at'>,
        excerpt?: string | null,
      ) => void;
      projects: Map<number, string>;
      usersOfEmails: (list: Iterable<string>) => number[];
    },
  ) {
    const { workspaceId, found, notify, projects, usersOfEmails } = input;
    const all = [...found.suggestions, ...found.decisions];
    const byKind = (kind: TextKind, field: 'textItemId' | 'componentId') =>
      all.flatMap((s) => {
        const id = asString(fieldAfter(s, field));
        return id === null ? [] : [{ s, id, kind }];
      });
    const wanted = [...byKind('text_item', 'textItemId'), ...byKind('component', 'componentId')];
    const texts = new Map<Change, TextEntity>();
    for (const kind of ['text_item', 'component'] as const) {
      const ids = wanted.filter((w) => w.kind === kind).map((w) => w.id);
      if (ids.length === 0) continue;
      const loaded = new Map(
        (await loadTextsByDeveloperIds(trx, workspaceId, kind, ids)).map((t) => [t.developerId, t]),
      );
      for (const w of wanted.filter((x) => x.kind === kind)) {
        const text = loaded.get(w.id);
        if (text) texts.set(w.s, text);
      }
    }
    const unassigned = found.suggestions.flatMap((s) => {
      const text = texts.get(s);
      return text && text.assigneeId === null ? [text.id] : [];
    });
    const followers =
      unassigned.length > 0 && (await repo.hasFollows(trx, workspaceId))
        ? await repo.followersOf(trx, workspaceId, unassigned)
        : new Map<number, number[]>();
    const rowOf = (change: Change, text: TextEntity) => ({
      record_kind: text.kind,
      text_id: text.id,
      record_developer_id: text.developerId,
      project_developer_id: text.kind === 'text_item' ? (projects.get(text.projectId) ?? null) : null,
      variant_developer_id: asString(fieldAfter(change, 'variantId')),
      thread_id: null,
      comment_id: null,
    });
    for (const s of found.suggestions) {
      const text = texts.get(s);
      if (!text) continue;
      const proposed = fieldAfter(s, 'proposed') as { text?: unknown } | undefined;
      const note = asString(fieldAfter(s, 'note'));
      const excerpt = [asString(proposed?.text), note === null ? null : `Note: ${note}`]
        .filter((line) => line !== null && line !== '')
        .join('\n\n');
      // The text's assignee is who answers for it, on a variant too; without one, its followers.
      notify(
        text.assigneeId !== null ? [text.assigneeId] : (followers.get(text.id) ?? []),
        {
          ...rowOf(s, text),
          kind: 'suggestion',
          detail: JSON.stringify({ suggestionId: s.developerId }),
        },
        excerpt,
      );
    }
    for (const d of found.decisions) {
      const text = texts.get(d);
      if (!text) continue;
      const note = asString(fieldAfter(d, 'decisionNote'));
      notify(
        usersOfEmails([asString(fieldAfter(d, 'suggestedBy')) ?? '']),
        {
          ...rowOf(d, text),
          kind: 'suggestion_decided',
          detail: JSON.stringify({
            suggestionId: d.developerId,
            decision: d.action,
            note,
            forced: fieldAfter(d, 'rebasedOnto') !== undefined && fieldAfter(d, 'rebasedOnto') !== null,
          }),
        },
        note,
      );
    }
  }

  writes.subscribe(onChanges);

  /** Texts by row id and kind, keyed by row id. */
  async function loadByRefs(executor: Executor, workspaceId: number, refs: readonly { id: number; kind: TextKind }[]) {
    const out = new Map<number, TextEntity>();
    for (const kind of ['text_item', 'component'] as const) {
      const ids = refs.filter((r) => r.kind === kind).map((r) => r.id);
      if (ids.length === 0) continue;
      for (const text of await loadTextsByRowIds(executor, workspaceId, kind, ids)) out.set(text.id, text);
    }
    return out;
  }

  /** A row as the API shows it; `live` has the developer IDs of the texts that still exist (null: as stored). */
  function presentRow(
    row: repo.NotificationRow,
    live: Map<number, string> | null,
    projectOf: Map<number, string> = new Map(),
  ): NotificationRecord {
    const current = row.text_id === null || live === null ? undefined : live.get(row.text_id);
    const recordDeleted = live !== null && current === undefined;
    const developerId = current ?? row.record_developer_id;
    const shown = {
      textItemId: row.record_kind === 'text_item' ? developerId : null,
      componentId: row.record_kind === 'component' ? developerId : null,
      projectId: (row.text_id === null ? undefined : projectOf.get(row.text_id)) ?? row.project_developer_id,
      variantId: row.variant_developer_id,
      threadId: row.thread_id,
    };
    const detail = row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>);
    const suggestionId = typeof detail?.suggestionId === 'string' ? detail.suggestionId : null;
    return {
      id: String(row.id),
      kind: row.kind as NotificationKind,
      ...shown,
      recordDeleted,
      commentId: row.comment_id,
      actor: row.actor,
      at: row.at,
      read: row.read_at !== null,
      readAt: row.read_at,
      detail,
      link: appLink({ ...shown, suggestionId }),
    };
  }

  /** Rows as the API shows them: the texts' and projects' developer IDs as they are now, while the text exists. */
  async function present(rows: readonly repo.NotificationRow[], workspaceId: number) {
    const live = await developerIdsByRowIds(
      db,
      workspaceId,
      rows.flatMap((r) => (r.text_id === null ? [] : [r.text_id])),
    );
    const items = await loadByRefs(
      db,
      workspaceId,
      rows.flatMap((r) =>
        r.record_kind === 'text_item' && r.text_id !== null && live.has(r.text_id)
          ? [{ id: r.text_id, kind: 'text_item' as const }]
          : [],
      ),
    );
    const projects = items.size > 0 ? await deps.projectsOf(db, workspaceId) : new Map<number, string>();
    const projectOf = new Map<number, string>();
    for (const [id, text] of items) {
      const project = text.kind === 'text_item' ? projects.get(text.projectId) : undefined;
      if (project !== undefined) projectOf.set(id, project);
    }
    return rows.map((row) => presentRow(row, live, projectOf));
  }

  const checkLimit = (limit: number) => {
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) {
      throw badRequest(`limit must be an integer from 1 to ${LIST_MAX_LIMIT}`);
    }
  };

  /** GET /v2/notifications: the caller's, newest first. */
  async function list(owner: Owner, query: NotificationsQuery) {
    const limit = query.limit ?? DEFAULT_LIMIT;
    checkLimit(limit);
    const rows = await repo.listNotifications(db, owner, {
      unread: query.unread === true,
      beforeId: cursor.decode(query.cursor),
      limit: limit + 1,
    });
    const { page, nextCursor } = cursor.page(rows, limit);
    return { notifications: await present(page, owner.workspaceId), nextCursor };
  }

  async function unreadCount(owner: Owner) {
    return { unread: await repo.countUnread(db, owner) };
  }

  /** POST /v2/notifications/read: the ids given (each the caller's: a 404 naming it otherwise), or all. */
  async function markRead(owner: Owner, input: ReadInput) {
    if (input.ids !== undefined && input.all !== undefined) throw badRequest('all: give ids or all, not both');
    if (input.ids === undefined && input.all === undefined)
      throw badRequest('ids: give the ids to mark read, or all: true');
    let ids: number[] | null = null;
    if (input.ids !== undefined) {
      const given = input.ids;
      ids = given.map((id, index) => {
        if (!/^[1-9]\d{0,15}$/.test(id)) throw notFound(`ids[${index}]: Notification ${id} not found`);
        return Number(id);
      });
      const own = await repo.ownIds(db, owner, ids);
      ids.forEach((id, index) => {
        // Another user's notification is as unknown as one that does not exist.
        if (!own.has(id)) throw notFound(`ids[${index}]: Notification ${given[index]} not found`);
      });
    }
    const updated = await repo.markRead(db, owner, { ids, at: now() });
    return { updated, unread: await repo.countUnread(db, owner) };
  }

  // Follows.

  /** The texts a follows body names, in order; an unknown one is a 404 naming its element. */
  async function requireTexts(workspaceId: number, inputs: readonly FollowInput[]) {
    inputs.forEach((input, index) => {
      if ((input.textItemId === undefined) === (input.componentId === undefined)) {
        throw badRequest(`follows[${index}].textItemId: name one text, textItemId or componentId`);
      }
    });
    const load = async (kind: TextKind, field: 'textItemId' | 'componentId') =>
      new Map(
        (
          await loadTextsByDeveloperIds(
            db,
            workspaceId,
            kind,
            inputs.flatMap((i) => (i[field] === undefined ? [] : [i[field] as string])),
          )
        ).map((t) => [t.developerId, t as TextEntity]),
      );
    const items = await load('text_item', 'textItemId');
    const components = await load('component', 'componentId');
    return inputs.map((input, index) => {
      const onItem = input.textItemId !== undefined;
      const id = (input.textItemId ?? input.componentId) as string;
      const text = (onItem ? items : components).get(id);
      if (!text) {
        throw notFound(
          `follows[${index}].${onItem ? 'textItemId' : 'componentId'}: ${onItem ? 'Text item' : 'Component'} with developer ID ${id} not found`,
        );
      }
      return text;
    });
  }

  /** PUT /v2/follows: follows the texts (already followed ones stay as they were). */
  async function follow(owner: Owner, inputs: readonly FollowInput[]) {
    const texts = await requireTexts(owner.workspaceId, inputs);
    const at = now();
    await repo.addFollows(
      db,
      texts.map((t) => ({
        workspace_id: owner.workspaceId,
        user_id: owner.userId,
        record_kind: t.kind,
        text_id: t.id,
        reason: 'explicit',
        created_at: at,
      })),
    );
  }

  /** DELETE /v2/follows: stops following the texts (one not followed is no error). */
  async function unfollow(owner: Owner, inputs: readonly FollowInput[]) {
    const texts = await requireTexts(owner.workspaceId, inputs);
    await repo.removeFollows(
      db,
      owner,
      texts.map((t) => t.id),
    );
  }

  /** GET /v2/follows: the caller's follows, oldest first; with a text, whether they follow it. */
  async function listFollows(owner: Owner, query: FollowsQuery) {
    const limit = query.limit ?? DEFAULT_FOLLOWS_LIMIT;
    checkLimit(limit);
    if (query.textItemId !== undefined && query.componentId !== undefined) {
      throw badRequest('componentId: give textItemId or componentId, not both');
    }
    let textId: number | undefined;
    const named = query.textItemId ?? query.componentId;
    if (named !== undefined) {
      const kind: TextKind = query.textItemId !== undefined ? 'text_item' : 'component';
      const [text] = await loadTextsByDeveloperIds(db, owner.workspaceId, kind, [named]);
      if (!text) {
        const field = kind === 'text_item' ? 'textItemId' : 'componentId';
        throw badRequest(
          `${field}: ${kind === 'text_item' ? 'Text item' : 'Component'} with developer ID ${named} not found`,
        );
      }
      textId = text.id;
    }
    const rows = await repo.listFollows(db, owner, {
      textId,
      afterId: followsCursor.decode(query.cursor),
      limit: limit + 1,
    });
    const { page, nextCursor } = followsCursor.page(rows, limit);
    const texts = await loadByRefs(
      db,
      owner.workspaceId,
      page.map((r) => ({ id: r.text_id, kind: r.record_kind })),
    );
    const projects = page.some((r) => r.record_kind === 'text_item')
      ? await deps.projectsOf(db, owner.workspaceId)
      : new Map<number, string>();
    const follows = page.flatMap((row): FollowRecord[] => {
      const text = texts.get(row.text_id);
      if (!text) return [];
      return [
        {
          textItemId: text.kind === 'text_item' ? text.developerId : null,
          componentId: text.kind === 'component' ? text.developerId : null,
          projectId: text.kind === 'text_item' ? (projects.get(text.projectId) ?? null) : null,
          reason: row.reason as FollowRecord['reason'],
          since: row.created_at,
        },
      ];
    });
    return { follows, nextCursor };
  }

  return { list, unreadCount, markRead, follow, unfollow, listFollows };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;

/** Every key and session belongs to a user; this guards the API against a principal without one. */
export function ownerOf(principal: { workspaceId: number; userId: number | null | undefined }): Owner {
  if (principal.userId === null || principal.userId === undefined || principal.userId <= 0) {
    throw forbidden('Notifications are per user: this key belongs to no user');
  }
  return { workspaceId: principal.workspaceId, userId: principal.userId };
}
