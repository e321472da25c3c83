import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import type { PresenceBody } from './events.schemas.js';
import type { PresenceEntry, PresenceKey, PresenceStore, PresenceText } from './events.types.js';
import { deleteExpiredPresence, deletePresence, listPresence, upsertPresence } from './presence.repository.js';

/**
 * Who has which text open (docs/events.md#presence). A tab says so with a heartbeat (`PUT
 * /v2/presence`) every few seconds and says goodbye when it closes (`DELETE`); an entry whose
 * heartbeats stop counts for `ttlMs` more, so a tab that crashed or lost its network disappears
 * within seconds too. Entries live in Redis when it is configured, else in the database, so every
 * server sees every tab.
 */

/** The database as the store: a row per tab, expired rows deleted by the workspace's next heartbeat. */
export function databasePresenceStore(db: Kysely<Database>): PresenceStore {
  return {
    async put(workspaceId, entry, { now }) {
      await deleteExpiredPresence(db, workspaceId, now);
      await upsertPresence(db, { ...entry, workspaceId });
    },
    remove: (workspaceId, key, text) => deletePresence(db, { ...key, workspaceId }, text),
    list: (workspaceId, now) => listPresence(db, workspaceId, now),
    async close() {},
  };
}

const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;

export function createPresence(deps: {
  store: PresenceStore;
  ttlMs: number;
  /** The time, in ms; tests give a clock they move by hand. */
  now?: () => number;
  /** Told after an entry of the workspace was written or removed here (the event streams look at once). */
  changed?: (workspaceId: number) => void;
}) {
  const now = deps.now ?? Date.now;
  const checkClient = (clientId: string) => {
    if (!CLIENT_ID.test(clientId)) {
      throw badRequest('clientId: must be 8 to 64 letters, digits, _ or - (a random id per browser tab)');
    }
  };
  return {
    ttlMs: deps.ttlMs,
    /** A tab's heartbeat: it has this text open, for `ttlMs` more. */
    async heartbeat(workspaceId: number, email: string, body: PresenceBody): Promise<PresenceEntry[]> {
      checkClient(body.clientId);
      const at = now();
      const entry: PresenceEntry = {
        email,
        clientId: body.clientId,
        kind: body.kind,
        id: body.id,
        expiresAt: at + deps.ttlMs,
      };
      await deps.store.put(workspaceId, entry, { ttlMs: deps.ttlMs, now: at });
      deps.changed?.(workspaceId);
      return deps.store.list(workspaceId, now());
    },
    /**
     * The tab closed its text (or itself): its entry goes at once. Naming the text keeps a
     * goodbye that arrives after the tab's heartbeat for its next text from removing that one.
     */
    async leave(workspaceId: number, key: PresenceKey, text?: PresenceText): Promise<void> {
      checkClient(key.clientId);
      await deps.store.remove(workspaceId, key, text);
      deps.changed?.(workspaceId);
    },
    list: (workspaceId: number) => deps.store.list(workspaceId, now()),
    close: () => deps.store.close(),
  };
}

export type PresenceService = ReturnType<typeof createPresence>;
