import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  latencies,
  prepareWorkspace,
  report,
  requestFrom,
  scaled,
  startServer,
  statusCounts,
  stopServer,
  watchHealth,
} from './harness.js';

/**
 * Slow clients: connections that trickle a request body (with and without a key), trickle their
 * headers, or send nothing, from nine addresses (127.0.0.2 … 127.0.0.10, fewer than the
 * per-address cap each, so the cap alone does not turn them away). With the server's limits at
 * 1 s for headers and 2 s for a request, every one of them must be closed by the server, while
 * /healthz and a normal client with a key (from 127.0.0.20) keep being answered. Before, 1,100
 * such connections refused every new connection for about a minute.
 */
const CONNECTIONS = scaled(60, 1100);
const ADDRESSES = 9;
const GIVE_UP_MS = 30_000;

function slowClient(port: number, from: string, head: string, trickle: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (closedByServer: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(closedByServer);
    };
    const giveUp = setTimeout(() => done(false), GIVE_UP_MS);
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.on('close', () => done(true));
    socket.on('connect', () => {
      if (head) socket.write(head);
      timer = setInterval(() => {
        if (sent < trickle.length && socket.writable) socket.write(trickle[sent++] as string);
      }, 250);
    });
  });
}

describe('slow clients', () => {
  it(`closes ${CONNECTIONS} trickling connections while /healthz answers`, async () => {
    const { key } = await prepareWorkspace('Slow clients');
    const server = await startServer({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });
    const body = JSON.stringify({ components: [{ text: 'x'.repeat(500) }] });
    const post = (authorization: string) =>
      `POST /v2/components HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${authorization}\r\n`;
    const kinds = [
      [post(`Authorization: ${key}\r\n`), body],
      [post(''), body],
      ['GET /v2/components HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'a'.repeat(500)],
      ['', ''],
    ] as const;
    const health = watchHealth(server.base);
    let attacking = true;
    const normal: { status: number; ms: number }[] = [];
    const normalClient = (async () => {
      while (attacking) {
        const started = performance.now();
        try {
          const answer = await requestFrom('127.0.0.20', `${server.base}/v2/statuses`, {
            headers: { authorization: key },
          });
          normal.push({ status: answer.status, ms: answer.ms });
        } catch {
          normal.push({ status: 0, ms: performance.now() - started });
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const closed = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, i) => {
        const [head, trickle] = kinds[i % kinds.length] as readonly [string, string];
        return slowClient(server.port, `127.0.0.${2 + (i % ADDRESSES)}`, head, trickle);
      }),
    );
    const allClosedMs = Math.round(performance.now() - started);
    attacking = false;
    await normalClient;
    const healthz = await health.stop();
    const stillOpen = closed.filter((c) => !c).length;
    report('slow clients', {
      connections: CONNECTIONS,
      stillOpen,
      allClosedMs,
      healthz,
      normalClient: { ...statusCounts(normal), ...latencies(normal.map((n) => n.ms)) },
      peakRssMiB: server.peakRssMiB(),
    });
    await stopServer(server);
    expect(stillOpen).toBe(0);
    expect(healthz.failures).toEqual([]);
    expect(normal.length).toBeGreaterThan(0);
    expect(normal.filter((n) => n.status !== 200)).toEqual([]);
  });
});
