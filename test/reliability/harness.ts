import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { servicesFor } from '../../src/services.js';
import { testDatabaseConfig } from '../helpers/database.js';

import { freePort } from '../helpers/ports.js';

export { freePort };

/**
 * What the reliability scenarios share: real server processes on the suite's database (a SQLite
 * file, or PostgreSQL when DATABASE_URL names one), a workspace and key made directly in the
 * database, and the size of the run (`npm run reliability -- --short` sets RELIABILITY_SHORT=1).
 */
export const SHORT = process.env.RELIABILITY_SHORT === '1';

/** The short form's count, or the full form's. */
export const scaled = (short: number, full: number) => (SHORT ? short : full);

export const database = testDatabaseConfig();
export const databaseUrl = database.kind === 'postgres' ? database.url : database.path;

/** One line a scenario reports, collected into the figures of docs/reliability.md. */
export function report(scenario: string, figures: Record<string, unknown>): void {
  const form = SHORT ? 'short' : 'full';
  console.log(`[reliability] ${scenario} (${database.kind}, ${form}): ${JSON.stringify(figures)}`);
}

export interface Workspace {
  id: number;
  key: string;
}

/** A migrated database with one workspace, its user and key; the handle is closed again. */
export async function prepareWorkspace(name: string): Promise<Workspace> {
  const setup = openDatabase(database);
  await migrateToLatest(setup.db);
  const services = servicesFor(loadConfig({}, { database }), setup);
  const { id } = await services.accounts.createWorkspace(name);
  await services.accounts.createUser({ workspaceId: id, email: 'ops@example.com', name: 'Ops', role: 'admin' });
  const { key } = await services.accounts.createKey({ workspaceId: id, email: 'ops@example.com' });
  await setup.close();
  return { id, key };
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  port: number;
  /** Peak resident memory of the process so far, in MiB (Linux), or null. */
  peakRssMiB(): number | null;
}

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * `copydesk serve` in its own process, answering /healthz: the build in dist/ (what `npm install`
 * makes and `npm run reliability` rebuilds), which starts in a fraction of the time the sources
 * take through tsx; RELIABILITY_FROM_SOURCES=1 runs the sources instead.
 */
const ENTRY =
  process.env.RELIABILITY_FROM_SOURCES === '1' ? ['--import', 'tsx', 'src/cli/run.ts'] : ['bin/copydesk.js'];

export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...ENTRY, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      if (Date.now() > deadline) throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const peakRssMiB = () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
      return kib ? Math.round(Number(kib) / 1024) : null;
    } catch {
      return null;
    }
  };
  return { child, base, port, peakRssMiB };
}

export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = once(server.child, 'exit');
  server.child.kill(signal);
  await exited;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux; 0 elsewhere). */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Polls /healthz every `everyMs` until stopped: how long each answer took, and any failure. */
export function watchHealth(base: string, everyMs = 50) {
  const durations: number[] = [];
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${base}/healthz`);
        await res.text();
        if (res.status !== 200) failures.push(`status ${res.status}`);
      } catch (error) {
        failures.push((error as Error).message);
      }
      durations.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const { count, ...percentiles } = latencies(durations);
      return { checks: count, failures, ...percentiles };
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

/**
 * One HTTP request from a chosen loopback address (`127.0.0.2`, ...: Linux routes all of 127/8 to
 * the loopback device), so a scenario can play several clients; a new connection each time.
 */
export function requestFrom(
  localAddress: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        localAddress,
        agent: false,
        headers: {
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Percentiles of a list of durations, in whole ms. */
export function latencies(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}

/** Counts of each status in a list of answers, e.g. `{ "200": 40, "429": 10 }`. */
export function statusCounts(answers: readonly { status: number }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Runs `copydesk <args>` to its end (or kills it after `timeoutMs`): exit code, output, time. */
export async function runCopydesk(
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  cpuMs: number;
}> {
  const started = performance.now();
  const child = spawn(process.execPath, [...ENTRY, ...args], {
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  // The first megabyte of stdout (a `--json` summary); the rest is read and dropped.
  child.stdout?.on('data', (chunk: Buffer) => {
    if (stdout.length < 1_000_000) stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  // CPU time as the process goes (the last tenth of a second is missed): wall time on a shared
  // machine counts waiting for a core too.
  let cpu = 0;
  const poll = setInterval(() => {
    cpu = Math.max(cpu, cpuMsOf(child.pid));
  }, 100);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  clearInterval(poll);
  return { code, signal, stdout, stderr, ms: Math.round(performance.now() - started), cpuMs: cpu };
}
