import { describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/database.js';
import { operatorOn, type ServerProcess, startServerProcess, workspaceWithKey } from '../helpers/server-process.js';

/**
 * Three servers on one PostgreSQL database (with Redis when TEST_REDIS_URL names one), each kept
 * busy by other clients: every revocation stops the key on all three, every write on one is served
 * by the others once they have heard of it, and nothing answers 5xx meanwhile.
 */
const url = process.env.DATABASE_URL ?? '';
const ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 20);

async function until<T>(ask: () => Promise<T>, done: (answer: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await ask();
    if (done(answer) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const revisionOf = (etag: string | null) => Number(/^(?:W\/)?"(\d+)-/.exec(etag ?? '')?.[1] ?? -1);

describe.skipIf(!onPostgres())('three servers on one PostgreSQL database under load', () => {
  it('agree on revocations and writes, and never fail', async () => {
    const operator = await operatorOn(url);
    const redis: Record<string, string> = process.env.TEST_REDIS_URL
      ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_KEY_PREFIX: `copydesk-reliability-${process.pid}:` }
      : {};
    const servers: ServerProcess[] = await Promise.all(
      [0, 1, 2].map(() => startServerProcess({ DATABASE_URL: url, ...redis })),
    );
    const failures: string[] = [];
    const busy = await workspaceWithKey(operator);
    let running = true;
    const load = servers.flatMap((server) =>
      [0, 1, 2].map(async () => {
        while (running) {
          const res = await server.call(busy.key, 'GET', '/v2/statuses');
          if (res.status >= 500) failures.push(`load: ${res.status} ${res.text}`);
        }
      }),
    );

    for (let round = 0; round < ROUNDS; round++) {
      const { key, keyId } = await workspaceWithKey(operator);
      for (const server of servers) expect((await server.call(key, 'GET', '/v2/statuses')).status).toBe(200);

      // A write on one server, served by the others once they know its revision.
      const writer = servers[round % servers.length] as ServerProcess;
      const before = await writer.call(key, 'GET', '/v2/statuses');
      const name = `Round ${round}`;
      const put = await writer.call(key, 'PUT', '/v2/statuses', { body: { statuses: [{ id: 'NONE', name }] } });
      expect(put.status, put.text).toBe(200);
      for (const server of servers) {
        await until(
          () => server.call(key, 'GET', '/v2/variables'),
          (res) => revisionOf(res.headers.get('etag')) > revisionOf(before.headers.get('etag')),
        );
        const read = await server.call(key, 'GET', '/v2/statuses', {
          headers: { 'if-none-match': before.headers.get('etag') ?? '' },
        });
        if (read.status !== 200 || !read.text.includes(name)) failures.push(`round ${round}: stale ${read.status}`);
      }

      await operator.services.accounts.revokeKey(keyId);
      for (const server of servers) {
        const res = await until(
          () => server.call(key, 'GET', '/v2/statuses'),
          (answer) => answer.status === 401,
        );
        if (res.status !== 401) failures.push(`round ${round}: revoked key still answered ${res.status}`);
      }
    }
    running = false;
    await Promise.all(load);
    expect(failures).toEqual([]);
    await Promise.all(servers.map((server) => server.stop()));
  });
});
