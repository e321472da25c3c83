import { Redis } from 'ioredis';
import type { PresenceEntry, PresenceKey, PresenceStore } from './events.types.js';

/** How long one Redis command may take: presence is a help, never worth holding a request for. */
const COMMAND_MS = 500;

/**
 * Presence in Redis (`REDIS_URL`), shared by every server: one hash per workspace,
 * `<prefix>presence:<workspace>`, a field per tab (`<email> <clientId>`) holding the entry as
 * JSON. The hash expires a while after its last heartbeat, so an abandoned workspace leaves
 * nothing behind; an entry past its own `expiresAt` is left out of reads and removed by them.
 */
export function redisPresenceStore(url: string, prefix: string): PresenceStore {
  const redis = new Redis(url, {
    connectTimeout: COMMAND_MS,
    commandTimeout: COMMAND_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 250, 2_000),
  });
  // Errors reach the callers' commands; the client reconnects in the background.
  redis.on('error', () => {});
  const keyOf = (workspaceId: number) => `${prefix}presence:${workspaceId}`;
  const fieldOf = (key: PresenceKey) => `${key.email} ${key.clientId}`;
  return {
    async put(workspaceId, entry, { ttlMs }) {
      const key = keyOf(workspaceId);
      await redis
        .multi()
        .hset(key, fieldOf(entry), JSON.stringify(entry))
        .pexpire(key, ttlMs * 4)
        .exec();
    },
    async remove(workspaceId, key, text) {
      if (text) {
        const json = await redis.hget(keyOf(workspaceId), fieldOf(key));
        const entry = json ? (JSON.parse(json) as PresenceEntry) : null;
        if (!entry || entry.kind !== text.kind || entry.id !== text.id) return;
      }
      await redis.hdel(keyOf(workspaceId), fieldOf(key));
    },
    async list(workspaceId, now) {
      const fields = await redis.hgetall(keyOf(workspaceId));
      const live: PresenceEntry[] = [];
      const expired: string[] = [];
      for (const [field, json] of Object.entries(fields)) {
        let entry: PresenceEntry | null = null;
        try {
          entry = JSON.parse(json) as PresenceEntry;
        } catch {
          entry = null;
        }
        if (entry && entry.expiresAt > now) live.push(entry);
        else expired.push(field);
      }
      // biome-ignore lint/plugin/no-spread-call: the expired fields of one workspace's tabs, a handful
      if (expired.length > 0) await redis.hdel(keyOf(workspaceId), ...expired);
      return live.sort((a, b) =>
        a.email === b.email ? (a.clientId < b.clientId ? -1 : 1) : a.email < b.email ? -1 : 1,
      );
    },
    async close() {
      redis.disconnect();
    },
  };
}
