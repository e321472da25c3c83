import { describe, expect, it } from 'vitest';
import { prepareWorkspace, report, scaled, startServer, stopServer } from './harness.js';

/**
 * kill -9 in the middle of writes: every write the server acknowledged (a 201) must be there after
 * a restart, and no batch may be half applied. Writers keep posting two-component batches while
 * the server is killed at a random moment; then a fresh server reads everything back.
 */
const CYCLES = scaled(2, 25);
const WRITERS = 4;

async function post(base: string, key: string, ids: string[]): Promise<'acknowledged' | 'failed'> {
  try {
    const res = await fetch(`${base}/v2/components`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({ components: ids.map((developerId) => ({ developerId, text: `Text of ${developerId}` })) }),
    });
    await res.text();
    return res.status === 201 ? 'acknowledged' : 'failed';
  } catch {
    return 'failed'; // the connection died with the server: not acknowledged
  }
}

describe('kill -9 during writes', () => {
  it(`loses no acknowledged write and half-applies no batch over ${CYCLES} cycles`, async () => {
    const { key } = await prepareWorkspace('Kill 9');
    const acknowledged = new Set<string>();
    const attempted: string[][] = [];
    let next = 0;
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      const server = await startServer();
      let stop = false;
      const writer = async () => {
        while (!stop) {
          const n = next++;
          const batch = [`c${n}-a`, `c${n}-b`];
          attempted.push(batch);
          if ((await post(server.base, key, batch)) === 'acknowledged') for (const id of batch) acknowledged.add(id);
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      await new Promise((r) => setTimeout(r, 400 + Math.floor(Math.random() * 800)));
      await stopServer(server, 'SIGKILL');
      stop = true;
      await Promise.all(writers);
    }
    const server = await startServer();
    const res = await fetch(`${server.base}/v2/components`, { headers: { authorization: key } });
    const stored = new Set(((await res.json()) as { id: string }[]).map((c) => c.id));
    await stopServer(server);
    const lost = [...acknowledged].filter((id) => !stored.has(id));
    const halfApplied = attempted.filter((batch) => stored.has(batch[0] as string) !== stored.has(batch[1] as string));
    report('kill -9', {
      cycles: CYCLES,
      batchesAttempted: attempted.length,
      writesAcknowledged: acknowledged.size,
      storedWithoutAcknowledgement: stored.size - [...acknowledged].filter((id) => stored.has(id)).length,
      lost: lost.length,
      halfApplied: halfApplied.length,
    });
    expect(lost).toEqual([]);
    expect(halfApplied).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(0);
  });
});
