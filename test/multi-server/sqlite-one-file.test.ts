import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempSqlitePath } from '../helpers/database.js';
import { operatorOn, type ServerProcess, startServerProcess, workspaceWithKey } from '../helpers/server-process.js';

const agent = new Agent({ keepAlive: true });

/** A bare request on a kept-alive connection: the next read starts the moment the write's answer does. */
function send(
  server: ServerProcess,
  key: string,
  method: string,
  path: string,
  options: { body?: string; etag?: string } = {},
) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const headers: Record<string, string> = { authorization: key };
    if (options.body) headers['content-type'] = 'application/json';
    if (options.etag) headers['if-none-match'] = options.etag;
    const req = request(`${server.origin}${path}`, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

// Two server processes on one SQLite file: whatever one acknowledged, the other serves on the
// next request, never a 304 or a kept body from before. Runs whatever DATABASE_URL says.
// The two servers are shared by the tests (a start is about 2 s of CPU); each test writes names
// of its own, so neither sees the other's writes as fresh.
describe('two servers on one SQLite file', { timeout: 120_000 }, () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let key = '';
  beforeAll(async () => {
    const path = tempSqlitePath('copydesk-multi-');
    const operator = await operatorOn(path);
    ({ key } = await workspaceWithKey(operator));
    [a, b] = await Promise.all([
      startServerProcess({ DATABASE_URL: path }),
      startServerProcess({ DATABASE_URL: path }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a write acknowledged by one is seen by the next read on the other', async () => {
    // Another client keeps B busy, so B has always just looked at the database when the read comes.
    let busy = true;
    const background = (async () => {
      while (busy) await send(b, key, 'GET', '/v2/statuses');
    })();
    const stale: string[] = [];
    for (let round = 1; round <= 60; round++) {
      const before = await fetch(`${b.origin}/v2/statuses`, { headers: { authorization: key } });
      const etag = before.headers.get('etag') ?? '';
      await before.text();
      const name = `Draft ${round}`;
      const put = await send(a, key, 'PUT', '/v2/statuses', {
        body: JSON.stringify({ statuses: [{ id: 'NONE', name }] }),
      });
      expect(put.status, put.text).toBe(200);
      const after = await send(b, key, 'GET', '/v2/statuses', { etag });
      if (after.status !== 200 || !after.text.includes(name))
        stale.push(`round ${round}: ${after.status} ${after.text}`);
    }
    busy = false;
    await background;
    expect(stale).toEqual([]);
  });

  // Requests that reach a server together share one look at the database; each must still see
  // every write acknowledged before it was sent, whatever else was in flight when it arrived.
  it('a burst of conditional reads sent after a write on the other server are all fresh', async () => {
    const loadAgent = new Agent({ keepAlive: true, maxSockets: 8 });
    const poll = (etag?: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const headers: Record<string, string> = { authorization: key };
        if (etag) headers['if-none-match'] = etag;
        const req = request(`${b.origin}/v2/statuses`, { headers, agent: loadAgent }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end();
      });
    // Eight connections keep B answering conditional reads the whole time.
    let busy = true;
    let etag = '';
    const background = Array.from({ length: 8 }, async () => {
      while (busy) await poll(etag || undefined);
    });
    const stale: string[] = [];
    for (let round = 1; round <= 30; round++) {
      const before = await fetch(`${b.origin}/v2/statuses`, { headers: { authorization: key } });
      etag = before.headers.get('etag') ?? '';
      await before.text();
      const name = `Review ${round}`;
      const put = await send(a, key, 'PUT', '/v2/statuses', {
        body: JSON.stringify({ statuses: [{ id: 'NONE', name }] }),
      });
      expect(put.status, put.text).toBe(200);
      const burst = await Promise.all(Array.from({ length: 10 }, () => poll(etag)));
      for (const [i, after] of burst.entries()) {
        if (after.status !== 200 || !after.text.includes(name))
          stale.push(`round ${round}, read ${i}: ${after.status}`);
      }
    }
    busy = false;
    await Promise.all(background);
    loadAgent.destroy();
    expect(stale).toEqual([]);
  });
});
