import { LRUCache } from 'lru-cache';
import type { ChangeEvents } from '../../db/change-feed.js';
import type { ActiveKey } from './accounts.repository.js';

const MAX_KEYS = 10_000;
const MAX_WORKSPACES = 100_000;

/**
 * Key lookups and workspace revisions kept in memory on PostgreSQL, where a lookup is a network
 * round trip. They are trusted only while the change feed listens: the database announces every
 * revision and every key change on commit (see the change_notifications migration), so what the
 * feed has not announced has not happened. While it does not listen, every lookup goes to the
 * database, as if nothing were kept.
 *
 * A kept lookup serves only while its workspace is at the revision it was read at: a user's role
 * or email changes through a write, which advances the revision, so the next request reads the
 * key again. Revocations are not writes of a workspace's content and are announced on their own.
 *
 * A lookup that started before an announcement may finish after it with older data: a revision
 * only ever grows (the larger one wins), and anything else read across a change of `epoch` is
 * used for its own request but not kept. Unknown keys are never kept, so guessing costs memory
 * nothing.
 *
 * Both maps are bounded least-recently-used caches. A revision pushed out of its map is forgotten
 * as if the feed had never announced it, so it moves the epoch on: a lookup begun before the
 * eviction must not put back an older revision than one the feed announced.
 */
export class PrincipalCache implements ChangeEvents {
  // Bounded by count with a size of 1 per entry rather than `max`, which allocates arrays of its
  // length up front: 14 ms and some 2 MB for 100,000, paid by every start and every command of
  // the command-line tool, mostly on SQLite where nothing is kept. These grow with what is kept.
  readonly #keys = new LRUCache<string, ActiveKey>({ maxSize: MAX_KEYS, sizeCalculation: () => 1 });
  readonly #revisions = new LRUCache<number, number>({
    maxSize: MAX_WORKSPACES,
    sizeCalculation: () => 1,
    dispose: (_revision, _workspaceId, reason) => {
      if (reason === 'evict') this.#epoch += 1;
    },
  });
  #epoch = 0;
  #live = false;

  async lookup(hash: string, load: () => Promise<ActiveKey | undefined>): Promise<ActiveKey | undefined> {
    if (this.#live) {
      const key = this.#keys.get(hash);
      if (key && this.#revisions.get(key.workspace_id) === key.revision) return { ...key };
    }
    const epoch = this.#epoch;
    const found = await load();
    if (!found || !this.#live || epoch !== this.#epoch) return found;
    this.#keys.set(hash, { ...found });
    this.revision(found.workspace_id, found.revision);
    return found;
  }

  /** The key was used: its kept row says so, so the next touch waits its interval. */
  touched(hash: string, usedAt: string): void {
    const key = this.#keys.get(hash);
    if (key) key.last_used_at = usedAt;
  }

  revision(workspaceId: number, revision: number): void {
    if (!Number.isSafeInteger(workspaceId) || !Number.isSafeInteger(revision)) return;
    const known = this.#revisions.get(workspaceId);
    if (known !== undefined && known >= revision) return;
    this.#revisions.set(workspaceId, revision);
  }

  keys(): void {
    this.#keys.clear();
    this.#epoch += 1;
  }

  connected(): void {
    this.#forget();
    this.#live = true;
  }

  disconnected(): void {
    this.#live = false;
    this.#forget();
  }

  #forget(): void {
    this.#keys.clear();
    this.#revisions.clear();
    this.#epoch += 1;
  }
}
