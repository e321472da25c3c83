import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { appendAll } from '../../shared/arrays.js';
import { advanceRevision, insertChanges } from './changes.repository.js';
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

/**
 * Changes logged per statement, with a turn of the event loop between pages: SQLite's driver is
 * synchronous, so the log of a write of 200,000 texts in one go would hold the loop for seconds.
 */
const CHANGE_PAGE = 2_000;

const sameRecord = (a: Change, b: Change) => a.ref === b.ref && a.kind === b.kind && a.developerId === b.developerId;

/** Logs the changes a page at a time; a page never splits one record's changes, so the rows are the same. */
async function recordChanges(
  trx: Transaction<Database>,
  scope: WriteScope,
  changes: readonly Change[],
  at: string,
  revision: number | null,
): Promise<void> {
  if (changes.length <= CHANGE_PAGE) return insertChanges(trx, scope, changes, at, revision);
  let start = 0;
  while (start < changes.length) {
    let end = Math.min(changes.length, start + CHANGE_PAGE);
    while (end < changes.length && sameRecord(changes[end - 1] as Change, changes[end] as Change)) end += 1;
    await insertChanges(trx, scope, changes.slice(start, end), at, revision);
    start = end;
    if (start < changes.length) await nextTurn();
  }
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
            await recordChanges(trx, scope, changes, at, revision ?? null);
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
