/**
 * The write path: the one way to change a workspace. Read top-down: what a service hands it
 * (`PlannedWrite`) and what listens to it (subscribers inside the transaction, listeners after
 * the commit); the write itself (`createWritePath`); then the SQL every write runs, on the
 * `workspaces` row (`advanceRevision`) and the `changes` table (`insertChanges`, a page at a
 * time). The change log's reads and its purge are in changes.repository.ts.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import { bulkInsert } from '../../db/bulk-insert.js';
import type { Database } from '../../db/schema.js';
import { appendAll } from '../../shared/arrays.js';
import { storedRows } from './changes.stored.js';
import type { Change, WriteScope } from './changes.types.js';

/**
 * What a service hands the write path: the whole change, already validated, and how to apply it.
 * `changes` is what the change log records; `apply` writes it through the service's repository.
 */
export interface PlannedWrite<T> {
  changes: readonly Change[];
  apply?: (trx: Transaction<Database>) => Promise<void>;
  result: T;
}

/**
 * Runs inside the write's transaction after the change log is written, with the changes and
 * their time: the webhook outbox subscribes here, so an event exists exactly when its change does.
 */
export type ChangeSubscriber = (
  trx: Transaction<Database>,
  scope: WriteScope,
  changes: readonly Change[],
  at: string,
) => Promise<void>;

/**
 * What a long write (an import of 200,000 keys) uses to record its changes as it goes, rather than
 * holding them all until its plan returns: `record` writes them into the change log and tells the
 * subscribers at once, in the write's transaction, so memory holds one part of the write at a
 * time. The write's time is that of its first recorded change.
 */
export interface WriteProgress {
  record(changes: readonly Change[]): Promise<void>;
}

/** Told after a write committed, with the workspace's new revision. */
export type CommitListener = (workspaceId: number, revision: number) => void;

export interface WritePath {
  /**
   * The one way to change a workspace. In one transaction: advance the workspace's revision
   * (which takes the workspace row's lock on PostgreSQL, so writers to one workspace queue and
   * `plan` validates against a settled state), let the service read and validate (`plan`), apply
   * the planned change, record every change in the log, and tell the subscribers. A `plan` that
   * throws leaves nothing written.
   */
  write<T>(
    scope: WriteScope,
    plan: (trx: Transaction<Database>, progress: WriteProgress) => Promise<PlannedWrite<T>>,
  ): Promise<T>;
  subscribe(subscriber: ChangeSubscriber): void;
  /**
   * Called once a write has committed. This process's own next request must see its write at
   * once, without waiting for the database's announcement (see PrincipalCache).
   */
  afterCommit(listener: CommitListener): void;
  /** Tells the `afterCommit` listeners of a revision advanced outside `write` (the history purge). */
  committed(workspaceId: number, revision: number): void;
  /** Whether a `write` is under way in this process (work that can wait, waits for it). */
  writing(): boolean;
  /**
   * One write made of other writes: every `write` that `compose` calls (through the modules'
   * own services) runs inside this write's transaction, and its changes join this write's, which
   * records them in the log, tells the subscribers and advances the revision once. A restore is
   * written this way. `compose` answers the write's result; a step that throws leaves nothing
   * written.
   */
  composed<T>(scope: WriteScope, compose: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
}

/** The write under way in this async context, which the writes of `composed` join. */
interface Outer {
  trx: Transaction<Database>;
  changes: Change[];
}

export function createWritePath(db: Kysely<Database>): WritePath {
  const subscribers: ChangeSubscriber[] = [];
  const listeners: CommitListener[] = [];
  let underWay = 0;
  const outer = new AsyncLocalStorage<Outer>();
  const committed = (workspaceId: number, revision: number) => {
    for (const listener of listeners) listener(workspaceId, revision);
  };
  const self: WritePath = {
    subscribe(subscriber) {
      subscribers.push(subscriber);
    },
    afterCommit(listener) {
      listeners.push(listener);
    },
    committed,
    writing: () => underWay > 0,
    async write(scope, plan) {
      const joined = outer.getStore();
      if (joined) {
        // Inside a composed write, whose changes are recorded together at its end.
        const progress: WriteProgress = {
          async record(changes) {
            appendAll(joined.changes, changes);
          },
        };
        const planned = await plan(joined.trx, progress);
        await planned.apply?.(joined.trx);
        appendAll(joined.changes, planned.changes);
        return planned.result;
      }
      underWay += 1;
      try {
        const { result, revision, changed } = await db.transaction().execute(async (trx) => {
          const revision = await advanceRevision(trx, scope.workspaceId);
          let at: string | null = null;
          let recorded = 0;
          const record = async (changes: readonly Change[]) => {
            if (changes.length === 0) return;
            at ??= new Date().toISOString();
            recorded += changes.length;
            await recordChanges(trx, { scope, changes, at, revision: revision ?? null });
            for (const subscriber of subscribers) await subscriber(trx, scope, changes, at);
          };
          const planned = await plan(trx, { record });
          await planned.apply?.(trx);
          await record(planned.changes);
          return { result: planned.result, revision, changed: recorded > 0 };
        });
        if (revision !== undefined) {
          committed(scope.workspaceId, revision);
          if (changed) scope.onCommitted?.(revision);
        }
        return result;
      } finally {
        underWay -= 1;
      }
    },
    composed(scope, compose) {
      return self.write(scope, async (trx) => {
        const changes: Change[] = [];
        const result = await outer.run({ trx, changes }, () => compose(trx));
        return { changes, result };
      });
    },
  };
  return self;
}

// The SQL of every write: the workspace's revision first, then its changes into the log.

/**
 * Advancing the revision first takes the workspace row's lock (PostgreSQL) for the transaction.
 * Answers the new revision (undefined for a workspace that does not exist).
 */
export async function advanceRevision(trx: Transaction<Database>, workspaceId: number): Promise<number | undefined> {
  const row = await trx
    .updateTable('workspaces')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', workspaceId)
    .returning('revision')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.revision);
}

/**
 * Changes logged per statement, with a turn of the event loop between pages: SQLite's driver is
 * synchronous, so the log of a write of 200,000 texts in one go would hold the loop for seconds.
 */
const CHANGE_PAGE = 2_000;

const sameRecord = (a: Change, b: Change) => a.ref === b.ref && a.kind === b.kind && a.developerId === b.developerId;

/** Logs the changes a page at a time; a page never splits one record's changes, so the rows are the same. */
async function recordChanges(trx: Transaction<Database>, logged: LoggedChanges): Promise<void> {
  const { changes } = logged;
  if (changes.length <= CHANGE_PAGE) return insertChanges(trx, logged);
  let start = 0;
  while (start < changes.length) {
    let end = Math.min(changes.length, start + CHANGE_PAGE);
    while (end < changes.length && sameRecord(changes[end - 1] as Change, changes[end] as Change)) end += 1;
    await insertChanges(trx, { ...logged, changes: changes.slice(start, end) });
    start = end;
    if (start < changes.length) await nextTurn();
  }
}

/** The change log's stored columns (besides its id), as written and as backed up. */
export const CHANGE_COLUMNS = [
  'workspace_id',
  'at',
  'actor',
  'key_id',
  'kind',
  'record_ref',
  'developer_id',
  'variant_id',
  'action',
  'fields',
  'revision',
] as const;

/** The changes of one write, with who made it, when it committed and the revision it made. */
interface LoggedChanges {
  scope: WriteScope;
  changes: readonly Change[];
  at: string;
  /** Null for a write that made no revision. */
  revision?: number | null;
}

/** Writes a write's changes, a row per record (see `storedRows`). */
async function insertChanges(trx: Transaction<Database>, logged: LoggedChanges): Promise<void> {
  const { scope, changes, at, revision = null } = logged;
  const { workspaceId, actor } = scope;
  await bulkInsert(
    trx,
    'changes',
    CHANGE_COLUMNS,
    storedRows(changes).map(({ first: c, fields }) => [
      workspaceId,
      at,
      actor.email,
      actor.keyId,
      c.kind,
      c.ref,
      c.developerId,
      c.variantId,
      c.action,
      fields,
      revision,
    ]),
  );
}
