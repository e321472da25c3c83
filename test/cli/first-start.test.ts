import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, scratchPostgres, tempSqlitePath } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { cliArguments } from '../helpers/server-build.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The real server process, as `npm start` runs it, on a database of its own: on the very first
 * start it creates a workspace, a user and a key and prints the key once; later starts do not.
 */
const ROOT = resolve(import.meta.dirname, '../..');
let databaseUrl = '';
const sqlitePath = tempSqlitePath('copydesk-first-');
let dropDatabase = async () => {};

beforeAll(async () => {
  if (!onPostgres()) {
    databaseUrl = sqlitePath;
    return;
  }
  const scratch = await scratchPostgres('copydesk_first');
  databaseUrl = scratch.url;
  dropDatabase = scratch.drop;
});

const running = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await dropDatabase();
});

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], env: Record<string, string> = {}): Server {
  const { HOST: _host, PORT: _port, ...inherited } = process.env;
  const child = spawn(process.execPath, cliArguments(['serve', ...args]), {
    cwd: ROOT,
    env: { ...inherited, DATABASE_URL: databaseUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      done({ code, signal });
    }),
  );
  return { child, output: () => output, exited };
}

/**
 * How long a start may take before a test fails with the process's output: a minute. A start is
 * about 2 s of CPU, but CI runs two suites side by side while it compiles the addons of another
 * Node version, and there a start took over 20 s (both suites of that stage failed so, on
 * 29 November 2026, on a slow machine). Waiting longer only delays a failure.
 */
const START_MS = 60_000;

/** Waits until the server answers /healthz at `base`, or fails with its output. */
async function ready(server: Server, base: string): Promise<void> {
  await waitFor(
    async () => {
      if (server.child.exitCode !== null) throw new Error('the server exited early');
      try {
        return (await fetch(`${base}/healthz`)).ok;
      } catch {
        return false; // not listening yet
      }
    },
    'the server to answer /healthz',
    { timeoutMs: START_MS, everyMs: 50 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; its output:\n${server.output()}`);
  });
}

/** Waits until the server's output matches `pattern`, or fails with the output. */
const printed = (server: Server, pattern: RegExp) =>
  waitFor(() => pattern.test(server.output()), `output matching ${pattern}`, { timeoutMs: START_MS }).catch(
    (error: Error) => {
      throw new Error(`${error.message}; the output:\n${server.output()}`);
    },
  );

async function stop(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null });
}

const get = (base: string, path: string, authorization: string) =>
  fetch(`${base}${path}`, { headers: { authorization } });

// Each test starts real processes, which is slow on a loaded machine. The first two run in turn
// (the second starts on the first's database); the last three, each on ports of its own, run at
// the same time: their processes start together instead of one after another.
describe('copydesk serve', { timeout: 4 * START_MS }, () => {
  let firstKey = '';

  it('on an empty database creates a workspace, a user and a key, prints the key once, and stops on SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = start(['--port', String(port)]);
    await ready(server, base);
    // The key is claimed and printed once the port is bound, so it may follow the first answer.
    await printed(server, /API key:\s+cdk_\S+/);

    const [, key] = /API key:\s+(cdk_\S+)/.exec(server.output()) ?? [];
    expect(key, server.output()).toBeDefined();
    firstKey = String(key);
    expect(server.output()).toContain('admin@localhost');

    const check = await get(base, '/token-check', firstKey);
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ success: true });
    expect((await get(base, '/token-check', `token ${firstKey}`)).status).toBe(200);
    const statuses = await get(base, '/v2/statuses', firstKey);
    expect(statuses.status).toBe(200);
    expect(await statuses.json()).toHaveLength(4);
    const users = await get(base, '/v2/users', firstKey);
    expect(await users.json()).toEqual([{ email: 'admin@localhost', name: 'Administrator', role: 'admin' }]);
    expect((await get(base, '/v2/statuses', 'cdk_wrong')).status).toBe(401);

    // The one-time link sets the first admin's password; it then signs in to the same API.
    const [, link] = /password \(the link works once\): (\S+)/.exec(server.output()) ?? [];
    expect(link, server.output()).toMatch(new RegExp(`^${base}/set-password#token=[\\w-]+$`));
    const token = new URL(String(link)).hash.slice('#token='.length);
    const post = (path: string, body: object) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/v2/session/password', { token, password: 'first admin password' })).status).toBe(200);
    expect((await post('/v2/session/password', { token, password: 'first admin password' })).status).toBe(400);
    const signIn = await post('/v2/session', { email: 'admin@localhost', password: 'first admin password' });
    expect(signIn.status).toBe(200);
    expect(await signIn.json()).toMatchObject({ role: 'admin' });
    const cookie = String(signIn.headers.get('set-cookie')).split(';')[0] ?? '';
    expect((await fetch(`${base}/v2/statuses`, { headers: { cookie } })).status).toBe(200);

    await stop(server);
    // Printed in the banner, and nowhere else: not in the request logs.
    expect(server.output().split(firstKey)).toHaveLength(2);
  });

  it('on the same database again prints no key, and the first key still works', async () => {
    expect(firstKey).toMatch(/^cdk_/);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = start(['--port', String(port)]);
    await ready(server, base);
    expect((await get(base, '/token-check', firstKey)).status).toBe(200);
    expect((await get(base, '/v2/statuses', firstKey)).status).toBe(200);
    await stop(server);
    expect(server.output()).not.toContain('API key');
    expect(server.output()).not.toContain('First start');
    expect(server.output()).not.toContain(firstKey);
  });

  it.concurrent('listens on HOST and PORT from the environment, and --host/--port win over them', async () => {
    const port = await freePort();
    // All of 127/8 is loopback on Linux: an address other than 127.0.0.1 shows HOST was used.
    const fromEnv = start([], { HOST: '127.0.0.2', PORT: String(port) });
    await ready(fromEnv, `http://127.0.0.2:${port}`);
    expect((await get(`http://127.0.0.2:${port}`, '/v2/statuses', firstKey)).status).toBe(200);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    await stop(fromEnv);

    const otherPort = await freePort();
    const fromFlags = start(['--host', '127.0.0.3', '--port', String(otherPort)], {
      HOST: '127.0.0.2',
      PORT: String(port),
    });
    await ready(fromFlags, `http://127.0.0.3:${otherPort}`);
    await expect(fetch(`http://127.0.0.2:${port}/healthz`)).rejects.toThrow();
    await stop(fromFlags);
  });

  it.concurrent('exits non-zero with one clear line when it cannot start: port in use, database unreachable, bad config', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const address = taken.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    try {
      const cases: { args: string[]; env: Record<string, string>; line: RegExp }[] = [
        {
          args: ['--port', String(address.port)],
          env: {},
          line: new RegExp(
            `^copydesk: cannot listen on 127\\.0\\.0\\.1:${address.port}: the address is already in use \\(EADDRINUSE\\)$`,
            'm',
          ),
        },
        {
          args: ['--port', String(await freePort())],
          env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' },
          line: /^copydesk: cannot open the database: the connection was refused \(ECONNREFUSED\)$/m,
        },
        { args: [], env: { PORT: 'eighty' }, line: /^copydesk: PORT must be an integer/m },
      ];
      // Started together (each is a process loading the whole server, slow on a loaded machine); a
      // process that does not exit within the minute fails with its output rather than the test's timeout.
      const servers = cases.map(({ args, env }) => start(args, env));
      for (const [i, { line }] of cases.entries()) {
        const server = servers[i] as Server;
        const exit = await Promise.race([
          server.exited,
          new Promise<null>((done) => setTimeout(() => done(null), 60_000).unref()),
        ]);
        expect(exit, server.output()).toEqual({ code: 1, signal: null });
        expect(server.output()).toMatch(line);
        expect(server.output()).not.toMatch(/\n\s+at /);
      }
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });

  it.concurrent('with COPYDESK_EVENT_LOOP_REPORT appends a line a second of loop delay and held CPU, and a final one on SIGTERM', async () => {
    const report = `${tempSqlitePath('copydesk-loop-')}.jsonl`;
    const port = await freePort();
    const server = start(['--port', String(port)], { COPYDESK_EVENT_LOOP_REPORT: report });
    await ready(server, `http://127.0.0.1:${port}`);
    const lines = () =>
      existsSync(report)
        ? readFileSync(report, 'utf8')
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [];
    await waitFor(() => lines().length >= 2, 'two lines of the event-loop report', { timeoutMs: START_MS });
    await stop(server);
    const written = lines();
    const last = written.at(-1) ?? {};
    expect(last.final).toBe(true);
    for (const line of written) {
      for (const field of ['maxMs', 'p99Ms', 'runMaxMs', 'runP99Ms', 'runMeanMs'])
        expect(line[field]).toBeTypeOf('number');
      // Linux: the main thread's CPU between two checks; never more than the run's most.
      expect(line.heldCpuMs).toBeTypeOf('number');
      expect(line.heldCpuMs as number).toBeGreaterThanOrEqual(0);
      expect(line.heldCpuMs as number).toBeLessThanOrEqual(line.runHeldCpuMs as number);
    }
    rmSync(report, { force: true });
  });
});
