/** The live event stream's and presence's vocabulary (docs/events.md). */

export const PRESENCE_KINDS = ['textItem', 'component'] as const;
export type PresenceKind = (typeof PRESENCE_KINDS)[number];

/** One browser tab of one person with one text open. */
export interface PresenceEntry {
  email: string;
  /** The tab's own id, chosen by the client: two tabs of one person are two entries. */
  clientId: string;
  kind: PresenceKind;
  /** The text's developer ID. */
  id: string;
  /** Milliseconds since the epoch: the entry counts until then unless a heartbeat moves it. */
  expiresAt: number;
}

export type PresenceKey = Pick<PresenceEntry, 'email' | 'clientId'>;
export type PresenceText = Pick<PresenceEntry, 'kind' | 'id'>;

/** Where entries are kept: Redis when configured (shared by every server), else the database. */
export interface PresenceStore {
  /** Writes the entry; `now` is the time the entries' expiry is measured against. */
  put(workspaceId: number, entry: PresenceEntry, times: { ttlMs: number; now: number }): Promise<void>;
  /** Removes the tab's entry; with `text`, only while the entry still names that text. */
  remove(workspaceId: number, key: PresenceKey, text?: PresenceText): Promise<void>;
  /** The entries that have not expired at `now`, ordered by email, then client id. */
  list(workspaceId: number, now: number): Promise<PresenceEntry[]>;
  close(): Promise<void>;
}
