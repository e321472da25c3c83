import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { tempSqlitePath } from '../helpers/database.js';
import { operatorOn, startServerProcess, workspaceWithKey } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';

// Rate limits shared through Redis by two server processes. Needs a Redis server: TEST_REDIS_URL,
// by default the local one; without one these tests are skipped, except on CI.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

// On CI a Redis must answer: there the tests fail rather than skip.
describe.skipIf(!process.env.CI && !(await redisAnswers()))(
  'rate limits shared through Redis',
  { timeout: 120_000 },
  () => {
    it('two servers draw on one budget per key and one per address', async () => {
      const path = tempSqlitePath('copydesk-redis-');
      const { key } = await workspaceWithKey(await operatorOn(path));
      const env = {
        DATABASE_URL: path,
        REDIS_URL: redisUrl,
        // A fresh namespace per run, so counters from an earlier run do not count.
        REDIS_KEY_PREFIX: `${process.env.TEST_REDIS_PREFIX ?? 'copydesk-test-'}${randomUUID()}:`,
        RATE_LIMIT_PER_MINUTE: '4',
        RATE_LIMIT_KEYLESS_PER_MINUTE: '3',
      };
      const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      // Until a server's Redis client is connected its limits are its own (Redis is never waited
      // for), so the shared budget is counted from the moment both say Redis is ok.
      for (const server of [a, b]) {
        await waitFor(
          async () => JSON.parse((await server.call(null, 'GET', '/readyz')).text).redis === 'ok',
          'both servers connected to Redis',
          { everyMs: 50 },
        );
      }

      const keyed = [a, b, a, b].map((server) => () => server.call(key, 'GET', '/v2/statuses'));
      for (const ask of keyed) expect((await ask()).status).toBe(200);
      const fifth = await a.call(key, 'GET', '/v2/statuses');
      expect(fifth.status).toBe(429);
      expect(JSON.parse(fifth.text).code).toBe('rate_limited');
      expect((await b.call(key, 'GET', '/v2/statuses')).status).toBe(429);

      expect((await a.call(null, 'GET', '/v2/statuses')).status).toBe(401);
      expect((await b.call('cdk_guess', 'GET', '/v2/statuses')).status).toBe(401);
      expect((await a.call(null, 'GET', '/v2/openapi.json')).status).toBe(200);
      const keyless = await b.call(null, 'GET', '/v2/statuses');
      expect(keyless.status).toBe(429);
      expect(Number(keyless.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await a.call(null, 'GET', '/healthz')).status).toBe(200);
      await Promise.all([a.stop(), b.stop()]);
    });
  },
);
