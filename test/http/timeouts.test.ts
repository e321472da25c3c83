import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createWorkspace, setupApp } from '../helpers/app.js';

// Small limits so that the test is quick; the defaults are minutes.
const ctx = await setupApp({
  timeouts: { headersMs: 600, requestMs: 1200, idleMs: 5000, keepAliveMs: 1000 },
});
await ctx.app.listen({ host: '127.0.0.1', port: 0 });
const { port } = ctx.app.server.address() as { port: number };
const ws = await createWorkspace(ctx);

/** Far more than any configured limit: a connection still open by then was never closed. */
const GIVE_UP_MS = 15_000;

const sockets = new Set<Socket>();
afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

interface Outcome {
  closedByServer: boolean;
  response: string;
  bytesSent: number;
}

/**
 * Opens a connection, writes `head` at once, then one byte of `trickle` every `everyMs` until the
 * server closes the connection or `GIVE_UP_MS` passes.
 */
function attack(head: string, trickle: string, everyMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.add(socket);
    const received: Buffer[] = [];
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedByServer, response: Buffer.concat(received).toString('utf8'), bytesSent: sent });
    };
    const giveUp = setTimeout(() => finish(false), GIVE_UP_MS);
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      if (head) socket.write(head);
      timer = setInterval(() => {
        if (sent < trickle.length && socket.writable) socket.write(trickle[sent++] as string);
      }, everyMs);
    });
  });
}

const body = JSON.stringify({ components: [{ text: 'x'.repeat(200) }] });
const postHead = (authorization: string | null) =>
  [
    'POST /v2/components HTTP/1.1',
    'Host: localhost',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...(authorization ? [`Authorization: ${authorization}`] : []),
    '',
    '',
  ].join('\r\n');

describe('connection time limits', () => {
  it('a body trickled a byte at a time is cut off with a 408', async () => {
    const outcome = await attack(postHead(ws.key), body, 100);
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.bytesSent).toBeLessThan(body.length);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.response).toContain('"code":"request_timeout"');
    expect((await ws.api.get('components')).body).toEqual([]);
  });

  it('without a key, the same trickle is refused and the connection closed', async () => {
    const outcome = await attack(postHead(null), body, 100);
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.bytesSent).toBeLessThan(body.length);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 (401|408) /);
  });

  it('headers trickled a byte at a time are cut off', async () => {
    const head = 'GET /v2/components HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';
    const outcome = await attack(head, 'a'.repeat(1000), 100);
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a connection that never sends anything is closed', async () => {
    const outcome = await attack('', '', 1000);
    expect(outcome.closedByServer).toBe(true);
  });

  it('a request sent promptly is served on the same server', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v2/components`, {
      method: 'POST',
      headers: { authorization: ws.key, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(201);
  });
});

describe('timeouts in the configuration', () => {
  it('are read from the environment, with defaults', () => {
    expect(loadConfig({}).timeouts).toEqual({
      headersMs: 15_000,
      requestMs: 60_000,
      idleMs: 120_000,
      keepAliveMs: 72_000,
    });
    const env = {
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '2000',
      CONNECTION_TIMEOUT_MS: '3000',
      KEEP_ALIVE_TIMEOUT_MS: '4000',
    };
    expect(loadConfig(env).timeouts).toEqual({ headersMs: 1000, requestMs: 2000, idleMs: 3000, keepAliveMs: 4000 });
  });

  it('refuse a headers limit above the request limit, and values that are not integers', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      'HEADERS_TIMEOUT_MS (5000) must not be more than REQUEST_TIMEOUT_MS (1000)',
    );
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(
      "REQUEST_TIMEOUT_MS must be an integer of at least 0, got 'soon'",
    );
  });
});

describe('an answer given before the body arrived', () => {
  it('closes the connection at once: a refused client cannot hold it until the request timeout', async () => {
    // A request timeout of a minute: only the early close can end these connections in time.
    const patient = await setupApp({
      timeouts: { headersMs: 60_000, requestMs: 60_000, idleMs: 60_000, keepAliveMs: 5_000 },
    });
    await patient.app.listen({ host: '127.0.0.1', port: 0 });
    const address = patient.app.server.address() as { port: number };
    try {
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            new Promise<{ closed: boolean; response: string; ms: number }>((resolve) => {
              const socket = connect(address.port, '127.0.0.1');
              sockets.add(socket);
              let response = '';
              const giveUp = setTimeout(() => {
                socket.destroy();
                resolve({ closed: false, response, ms: Date.now() - started });
              }, GIVE_UP_MS);
              socket.on('error', () => {});
              socket.on('data', (chunk) => (response += String(chunk)));
              socket.on('close', () => {
                clearTimeout(giveUp);
                resolve({ closed: true, response, ms: Date.now() - started });
              });
              socket.on('connect', () => socket.write(`${postHead(null)}{"comp`));
            }),
        ),
      );
      for (const outcome of outcomes) {
        expect(outcome.closed).toBe(true);
        expect(outcome.response).toMatch(/^HTTP\/1\.1 401 /);
        expect(outcome.response.toLowerCase()).toContain('connection: close');
        expect(outcome.ms).toBeLessThan(GIVE_UP_MS);
      }
    } finally {
      await patient.app.close();
    }
  });
});

describe('open connections per client address', () => {
  it('closes the connections past the cap at once; other addresses and freed places are served', async () => {
    const capped = await setupApp({ maxConnectionsPerAddress: 5 });
    await capped.app.listen({ host: '0.0.0.0', port: 0 });
    const { port: cappedPort } = capped.app.server.address() as { port: number };
    const open = (localAddress: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect({ port: cappedPort, host: '127.0.0.1', localAddress });
        sockets.add(socket);
        socket.once('connect', () => resolve(socket));
        socket.once('error', reject);
      });
    /** Whether the server closes `socket` rather than answering a health check on it. */
    const answered = (socket: Socket) =>
      new Promise<boolean>((resolve) => {
        let data = '';
        socket.on('data', (chunk) => {
          data += String(chunk);
          if (data.includes('\r\n\r\n')) resolve(/^HTTP\/1\.1 200 /.test(data));
        });
        socket.once('close', () => resolve(false));
        socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      });
    try {
      const held = await Promise.all(Array.from({ length: 5 }, () => open('127.0.0.1')));
      expect(await answered(await open('127.0.0.1'))).toBe(false);
      expect(await answered(await open('127.0.0.2'))).toBe(true);
      held[0]?.destroy();
      await new Promise((done) => held[0]?.once('close', done));
      // The server hears of the close a moment later: a fresh connection once it has.
      let served = false;
      for (let tries = 0; tries < 50 && !served; tries += 1) served = await answered(await open('127.0.0.1'));
      expect(served).toBe(true);
      for (const socket of held.slice(1)) expect(await answered(socket)).toBe(true);
    } finally {
      await capped.app.close();
    }
  });
});

describe('a closing server', () => {
  it('ends the connections that have sent nothing yet and the idle ones, so it never waits for a client', async () => {
    // Every limit a minute long: only the close itself can end these connections within the test.
    const closing = await setupApp({
      timeouts: { headersMs: 60_000, requestMs: 60_000, idleMs: 60_000, keepAliveMs: 60_000 },
    });
    await closing.app.listen({ host: '127.0.0.1', port: 0 });
    const { port: closingPort } = closing.app.server.address() as { port: number };
    const open = () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(closingPort, '127.0.0.1');
        sockets.add(socket);
        socket.on('error', () => {});
        socket.once('connect', () => resolve(socket));
        socket.once('error', reject);
      });
    const ended = (socket: Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // A connection a client opened and has not used (a browser's preconnect)...
    const unused = await open();
    // ...and one kept alive after its answer.
    const idle = await open();
    await new Promise<void>((resolve) => {
      let data = '';
      idle.on('data', (chunk) => {
        data += String(chunk);
        if (data.includes('\r\n\r\n')) resolve();
      });
      idle.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });
    // Before, the close waited for the client to give up the unused connection: here, never.
    await Promise.all([closing.app.close(), ended(unused), ended(idle)]);
    expect(unused.destroyed && idle.destroyed).toBe(true);
  });
});
