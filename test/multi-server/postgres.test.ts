import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/database.js';
import { operatorOn, type ServerProcess, startServerProcess, workspaceWithKey } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { openEvents } from '../modules/events/sse.js';

// Servers on one PostgreSQL database keep key lookups and revisions in memory and learn of other
// processes' commits from the database's notifications. Only PostgreSQL has them.
const url = process.env.DATABASE_URL ?? '';

/** Asks until `done` holds for the answer, for at most `ms`; answers the last answer. */
async function until<T>(ask: () => Promise<T>, done: (answer: T) => boolean, ms = 10_000): Promise<T> {
  let answer = await ask();
  if (done(answer)) return answer;
  await waitFor(
    async () => {
      answer = await ask();
      return done(answer);
    },
    'the expected answer',
    { timeoutMs: ms },
  );
  return answer;
}

const revisionOf = (etag: string | null) => Number(/^(?:W\/)?"(\d+)-/.exec(etag ?? '')?.[1] ?? -1);

describe.skipIf(!onPostgres())('servers on one PostgreSQL database', { timeout: 120_000 }, async () => {
  const operator = onPostgres() ? await operatorOn(url) : undefined;
  const servers: ServerProcess[] = onPostgres()
    ? await Promise.all([startServerProcess({ DATABASE_URL: url }), startServerProcess({ DATABASE_URL: url })])
    : [];
  const [a, b] = servers as [ServerProcess, ServerProcess];
  const admin = () => operator as NonNullable<typeof operator>;

  it('a key revoked by the administrator stops working on every server', async () => {
    const { key, keyId } = await workspaceWithKey(admin());
    // Both servers have looked the key up, and may keep it.
    for (const server of servers) expect((await server.call(key, 'GET', '/v2/statuses')).status).toBe(200);
    await admin().services.accounts.revokeKey(keyId);
    for (const server of servers) {
      const answer = await until(
        () => server.call(key, 'GET', '/v2/statuses'),
        (res) => res.status === 401,
      );
      expect(answer.status).toBe(401);
    }
  });

  it('a write on one server is served by the other, never as a 304 or a kept body for the old ETag', async () => {
    const { key } = await workspaceWithKey(admin());
    const before = await b.call(key, 'GET', '/v2/statuses');
    expect(before.status).toBe(200);
    const etag = before.headers.get('etag') ?? '';
    // B keeps the rendered answer: asked again, it is sent from memory under the same ETag.
    expect((await b.call(key, 'GET', '/v2/statuses')).headers.get('etag')).toBe(etag);

    const put = await a.call(key, 'PUT', '/v2/statuses', { body: { statuses: [{ id: 'NONE', name: 'Renamed' }] } });
    expect(put.status, put.text).toBe(200);
    // Once B has heard of the new revision (another of its answers carries it)...
    const written = revisionOf(etag) + 1;
    const seen = await until(
      () => b.call(key, 'GET', '/v2/variables'),
      (res) => revisionOf(res.headers.get('etag')) >= written,
    );
    expect(revisionOf(seen.headers.get('etag'))).toBeGreaterThanOrEqual(written);
    // ...the old ETag no longer matches and the kept body is not sent.
    const after = await b.call(key, 'GET', '/v2/statuses', { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.text)).toEqual([{ id: 'NONE', name: 'Renamed' }]);
    // And A, which wrote, serves it at once.
    const onA = await a.call(key, 'GET', '/v2/statuses', { headers: { 'if-none-match': etag } });
    expect(onA.status).toBe(200);
  });

  it("a write on one server reaches the other's event stream, and a stream resumed there misses nothing", async () => {
    const { key } = await workspaceWithKey(admin());
    const onB = await openEvents(b.origin, { authorization: key });
    await onB.next('ready');
    const write = async (developerId: string) => {
      const res = await a.call(key, 'POST', '/v2/components', { body: { components: [{ developerId, text: 'x' }] } });
      expect(res.status, res.text).toBeLessThan(300);
      return Number(res.headers.get('copydesk-revision'));
    };
    const first = await write('first');
    await onB.next('change', (d) => Number(d.revision) === first, "A's write on B's stream");
    onB.close();
    // Written on A while nobody listened; resumed on B from the last event it had.
    const second = await write('second');
    const third = await write('third');
    const resumed = await openEvents(b.origin, { authorization: key, 'last-event-id': String(first) });
    await resumed.next('change', (d) => Number(d.revision) === third);
    expect(resumed.of('change').map((d) => Number(d.revision))).toEqual([second, third]);
    resumed.close();
  });

  it('a server whose listening connection was cut misses nothing committed meanwhile', async () => {
    const { key, keyId } = await workspaceWithKey(admin());
    const other = await workspaceWithKey(admin());
    expect((await b.call(key, 'GET', '/v2/statuses')).status).toBe(200);
    const before = await b.call(other.key, 'GET', '/v2/statuses');
    const etag = before.headers.get('etag') ?? '';
    // In one transaction: end B's listening session (waiting until it is gone), then revoke a key
    // B has looked up and advance a revision B knows. The announcements go out at commit, when
    // B has nobody listening.
    await admin()
      .db.transaction()
      .execute(async (trx) => {
        await sql`select pg_terminate_backend(pid, 5000) from pg_stat_activity
                  where application_name = ${`copydesk-change-feed ${b.pid}`}`.execute(trx);
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: new Date().toISOString() })
          .where('id', '=', keyId)
          .execute();
        await trx
          .updateTable('workspaces')
          .set((eb) => ({ revision: eb('revision', '+', 1) }))
          .where('id', '=', other.id)
          .execute();
      });
    const revoked = await until(
      () => b.call(key, 'GET', '/v2/statuses'),
      (res) => res.status === 401,
    );
    expect(revoked.status).toBe(401);
    const fresh = await until(
      () => b.call(other.key, 'GET', '/v2/statuses', { headers: { 'if-none-match': etag } }),
      (res) => res.status === 200,
    );
    expect(fresh.status).toBe(200);
    expect(revisionOf(fresh.headers.get('etag'))).toBe(revisionOf(etag) + 1);
  });
});
