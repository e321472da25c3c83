import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The CLI the scripts start: this tree's build, or `BENCH_BIN` (another checkout's, for A/B runs). */
export const bin = process.env.BENCH_BIN ?? join(root, 'bin', 'copydesk.js');
/** Extra node flags for the server only, e.g. `BENCH_NODE_ARGS=--cpu-prof` (not allowed in NODE_OPTIONS). */
const serverNodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');

export function tempDatabaseUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? join(mkdtempSync(join(tmpdir(), 'copydesk-bench-')), 'bench.db');
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Runs the CLI to completion and returns its stdout. */
export async function cli(args: string[], env: NodeJS.ProcessEnv, cliPath = bin): Promise<string> {
  const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...env } });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.pipe(process.stderr);
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`copydesk ${args.join(' ')} exited ${code}`);
  return out;
}

export async function waitForHttp(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * `copydesk serve` of this tree's build (or `BENCH_BIN`), or of the CLI at `cliPath`. Its stdout
 * and stderr (the log lines of a 500, a crash's stack) go to `logFile`, appended, so that a run
 * keeps them: by default `server.log` in a new temporary directory. The path is printed.
 */
export function startServer(
  env: NodeJS.ProcessEnv,
  cliPath = bin,
  logFile = join(mkdtempSync(join(tmpdir(), 'copydesk-bench-')), 'server.log'),
): ChildProcess {
  const fd = openSync(logFile, 'a');
  writeSync(fd, `--- ${new Date().toISOString()} copydesk serve (${cliPath})\n`);
  console.error(`server log: ${logFile}`);
  try {
    const child = spawn(process.execPath, [...serverNodeArgs, cliPath, 'serve'], {
      env: {
        ...process.env,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
        RATE_LIMIT_KEYLESS_PER_MINUTE: '0',
        ...env,
      },
      stdio: ['ignore', fd, fd],
    });
    // A bench that fails before it stops its server (an uncaught error) leaves none running.
    const orphaned = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    process.once('exit', orphaned);
    child.once('exit', () => process.off('exit', orphaned));
    return child;
  } finally {
    // The child has its own copy of the descriptor.
    closeSync(fd);
  }
}

/**
 * CPU time (user + system) a process has used, in ms, from /proc (Linux, 10 ms ticks; 0 elsewhere).
 * On a shared machine a request's wall time also counts waiting for a core; its CPU time does not.
 */
/**
 * Server CPU per write over a series of writes, counting the work they leave for the moments after
 * (the search index is worked off once writes pause): the CPU from `startCpu` to 1.5 s after the
 * last write, over `writes`. The idle second costs the server next to nothing.
 */
export async function cpuPerWriteSettled(pid: number | undefined, startCpu: number, writes: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return (cpuMs(pid) - startCpu) / writes;
}

export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export async function load(
  url: string,
  options: { connections: number; duration: number; headers?: Record<string, string> },
): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.duration,
    headers: options.headers,
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export interface BenchServer {
  DATABASE_URL: string;
  workspaceId: number;
  database: 'sqlite' | 'postgres';
  key: string;
  port: number;
  server: ChildProcess;
  /** An API call with the bench key; throws on anything but 2xx. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  /** `call`, answering its wall time and the server's CPU time over it, in ms. */
  timed(method: string, path: string, body?: unknown): Promise<{ ms: number; cpu: number }>;
}

/** A fresh database with a workspace, a user and a key (through the CLI), and a server on it (of `cliPath`'s build). */
export async function startBenchServer(workspaceName: string, cliPath = bin): Promise<BenchServer> {
  const DATABASE_URL = tempDatabaseUrl();
  const json = async (args: string[]) => JSON.parse(await cli([...args, '--json'], { DATABASE_URL }, cliPath));
  const workspace = await json(['workspace', 'create', '--name', workspaceName]);
  const email = 'bench@example.com';
  const user = ['user', 'create', '--workspace', String(workspace.id), '--email', email];
  // A build from before roles (an A/B run's base) has no --role: every user of it may write.
  await json([...user, '--role', 'admin']).catch(() => json(user));
  const { key } = await json(['key', 'create', '--workspace', String(workspace.id), '--email', email]);
  const port = await freePort();
  const server = startServer({ DATABASE_URL, PORT: String(port) }, cliPath);
  // A loaded machine (several benches and suites at once) can take well over 10 s to start a server.
  await waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000);
  const headers = { authorization: key, 'content-type': 'application/json' };
  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    const res = await fetch(`http://127.0.0.1:${port}/v2/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} /v2/${path}: ${res.status} ${await res.text()}`);
    return res;
  }
  async function timed(method: string, path: string, body?: unknown): Promise<{ ms: number; cpu: number }> {
    const cpu = cpuMs(server.pid);
    const started = performance.now();
    await (await call(method, path, body)).arrayBuffer();
    return { ms: performance.now() - started, cpu: cpuMs(server.pid) - cpu };
  }
  const database = DATABASE_URL.startsWith('postgres') ? 'postgres' : 'sqlite';
  return { DATABASE_URL, workspaceId: Number(workspace.id), database, key, port, server, call, timed };
}
