import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { idCursor } from '../../shared/cursor.js';
import {
  changesOfStoredRow,
  deleteChangesBefore,
  idsOfWrite,
  listChanges,
  readRevision,
  readRevisions,
  retainedRevisions,
  rowsAfterRevision,
} from './changes.repository.js';
import { changeId } from './changes.stored.js';
import { CHANGE_KINDS, type Change, type ChangeKind, type RecordedChange } from './changes.types.js';
import { HISTORY_MAX_LIMIT, type HistoryQuery } from './history.schemas.js';
import type { WritePath } from './write-path.js';

/** One write as the live event stream carries it: its revision and its changes, in order. */
export interface LoggedWrite {
  revision: number;
  at: string;
  actor: string;
  changes: RecordedChange[];
  /** How many changes were read; more than `changes` holds past the limit. */
  count: number;
  /** The write had more rows than one read takes: `changes` and `count` are of its first ones only. */
  cut: boolean;
}

export interface HistoryPage {
  changes: RecordedChange[];
  nextCursor: string | null;
}

const DEFAULT_LIMIT = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/** ISO 8601 date or date-time (a time needs its zone); `2026-11-23` is midnight UTC. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const time = ISO_DATE.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw badRequest(`${field}: '${value}' is not an ISO 8601 date or date-time`);
  return new Date(time).toISOString();
}

/** A revision as clients send it: a positive integer, as a string. */
export function revisionOf(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,15}$/.test(value)) throw badRequest(`${field}: '${value}' is not a revision (a positive integer)`);
  return Number(value);
}

const cursor = idCursor('h2:');
/** Cursors handed out before a row could hold several changes name a row. */
const rowCursor = idCursor('h1:');

function decodeCursor(value: string | undefined): number | undefined {
  try {
    return cursor.decode(value);
  } catch {
    const row = rowCursor.decode(value);
    return row === undefined ? undefined : changeId(row, 0);
  }
}

export function createHistoryService(deps: {
  db: Kysely<Database>;
  retentionDays: number;
  /** Told of the revisions a purge advanced, like those of a write (see WritePath.committed). */
  writes?: Pick<WritePath, 'committed'>;
}) {
  const { db } = deps;

  /** GET /v2/history: the workspace's changes, newest first, a page at a time. */
  async function list(workspaceId: number, query: HistoryQuery): Promise<HistoryPage> {
    // One kind, or several separated by commas (`textItem,component`).
    const kinds = query.kind?.split(',').map((k) => k.trim());
    const unknown = kinds?.find((k) => !CHANGE_KINDS.includes(k as ChangeKind));
    if (unknown !== undefined) {
      const known = CHANGE_KINDS.map((k) => `"${k}"`).join(', ');
      throw badRequest(`kind must be one of: ${known} (or several, separated by commas), not '${unknown}'`);
    }
    const limit = query.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_MAX_LIMIT) {
      throw badRequest(`limit must be an integer from 1 to ${HISTORY_MAX_LIMIT}`);
    }
    // One more than asked tells whether another page follows.
    const rows = await listChanges(db, workspaceId, {
      kind: kinds,
      developerId: query.id,
      since: instant(query.since, 'since'),
      until: instant(query.until, 'until'),
      actor: query.actor,
      revision: revisionOf(query.revision, 'revision'),
      beforeId: decodeCursor(query.cursor),
      limit: limit + 1,
    });
    const { page: changes, nextCursor } = cursor.page(rows, limit);
    return { changes, nextCursor };
  }

  /** Deletes changes older than the retention period (0 days keeps everything). */
  async function purgeExpired(now = Date.now()): Promise<number> {
    if (deps.retentionDays === 0) return 0;
    const { deleted, revisions } = await deleteChangesBefore(
      db,
      new Date(now - deps.retentionDays * DAY_MS).toISOString(),
    );
    for (const { id, revision } of revisions) deps.writes?.committed(id, revision);
    return deleted;
  }

  return {
    list,
    purgeExpired,
    /**
     * Inside a write's transaction, after the log is written: the ids of its changes, in the order
     * they were given.
     */
    idsOfWrite: (trx: Executor, workspaceId: number, changes: readonly Change[]) =>
      idsOfWrite(trx, workspaceId, changes),
    /** The changes whose ids fall in the given inclusive ranges, oldest first, as history shows them. */
    async inRanges(workspaceId: number, ranges: readonly (readonly [number, number])[]): Promise<RecordedChange[]> {
      let count = 0;
      for (const [from, to] of ranges) count += to - from + 1;
      if (count === 0) return [];
      return (await listChanges(db, workspaceId, { ranges, limit: count })).reverse();
    },
    /**
     * The writes after revision `after`, oldest first, read `rowLimit` rows at a time: `more` says
     * that later writes wait for the next read. A write of more rows than that (an import) comes
     * alone, with the changes of its first `rowLimit` rows, at most `changeLimit` of them, and its
     * `count` of those read; the stream then says it was cut short.
     */
    async writesAfter(
      workspaceId: number,
      after: number,
      limits: { rowLimit: number; changeLimit: number },
    ): Promise<{ writes: LoggedWrite[]; more: boolean }> {
      const rows = await rowsAfterRevision(db, workspaceId, after, limits.rowLimit);
      const more = rows.length === limits.rowLimit;
      const writes: LoggedWrite[] = [];
      for (const row of rows) {
        const revision = Number(row.revision);
        let write = writes[writes.length - 1];
        if (write?.revision !== revision) {
          write = { revision, at: row.at, actor: row.actor, changes: [], count: 0, cut: false };
          writes.push(write);
        }
        for (const change of changesOfStoredRow(row)) {
          write.count += 1;
          if (write.changes.length < limits.changeLimit) write.changes.push(change);
        }
      }
      // The last write read may go on past the rows read: it is read whole next time, unless it is
      // the only one (a write too large for one read), which is sent as read.
      if (more && writes.length > 1) writes.pop();
      else if (more) (writes[0] as LoggedWrite).cut = true;
      return { writes, more };
    },
    /** The oldest revision whose changes the log still holds, and the workspace's revision now. */
    retainedRevisions: (workspaceId: number) => retainedRevisions(db, workspaceId),
    /** The revisions of several workspaces, in one read (the live streams' poll). */
    revisionsOf: (workspaceIds: readonly number[]) => readRevisions(db, workspaceIds),
    /** The workspace's revision, for readers outside a request (the CLI); undefined: no such workspace. */
    revisionOf: (workspaceId: number) => readRevision(db, workspaceId),
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
