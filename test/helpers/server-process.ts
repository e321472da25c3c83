import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/schema.js';
import { createServices, type Services } from '../../src/services.js';
import { onFreePort } from './ports.js';
import { cliArguments } from './server-build.js';
import { waitFor } from './wait.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A `copydesk serve` process of its own, on a free loopback port. */
export interface ServerProcess {
  origin: string;
  pid: number;
  output(): string;
  /** A request with the given key (null for none), answering status, headers and body text. */
  call(key: string | null, method: string, path: string, options?: CallOptions): Promise<Answer>;
  stop(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

const running = new Set<ChildProcess>();
/**
 * Kills the servers still running: after each test file (`test/helpers/per-file.ts`, as test files
 * share this module within a worker and a hook registered here would run after the first file
 * only), and on exit as well: a failed assertion must not leave servers behind.
 */
export function killServerProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
}
process.once('exit', killServerProcesses);

/**
 * Starts the server as an operator would (`copydesk serve`, compiled for this run: `cliArguments`),
 * with the given environment on top of this process's, and waits until it answers.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return onFreePort(
    (port) => startOnPort(env, port),
    (error) => error instanceof PortTaken,
  );
}

/** The child could not listen on the port it was given: another process took it first. */
class PortTaken extends Error {}

async function startOnPort(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const { HOST: _host, PORT: _port, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, cliArguments(['serve', '--port', String(port)]), {
    cwd: ROOT,
    env: { ...inherited, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_KEYLESS_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  // Once its output has ended too.
  const closed = once(child, 'close');
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const origin = `http://127.0.0.1:${port}`;
  // A minute: CI runs two suites side by side, at times while it compiles addons, and a start of
  // about 2 s of CPU then took over 20 s (test/cli/first-start.test.ts says when).
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error('the server exited early');
      try {
        return (await fetch(`${origin}/readyz`)).ok;
      } catch {
        return false; // not listening yet
      }
    },
    'the server to answer /readyz',
    { timeoutMs: 60_000, everyMs: 50 },
  ).catch(async (error: Error) => {
    // What it printed last may still be on its way once it has exited.
    if (child.exitCode !== null) await closed;
    const message = `server did not start (${error.message}):\n${output}`;
    throw child.exitCode !== null && output.includes('EADDRINUSE') ? new PortTaken(message) : new Error(message);
  });
  return {
    origin,
    pid: child.pid ?? 0,
    output: () => output,
    async call(key, method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (key !== null) headers.authorization = key;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${origin}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * The administrator's side, in this process: the services on the servers' database, as the CLI
 * uses them (a workspace, its user and key; revoking a key). Closed after the file.
 */
export async function operatorOn(databaseUrl: string): Promise<Operator> {
  const config = loadConfig({ DATABASE_URL: databaseUrl });
  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  afterAll(() => database.close());
  return { services: createServices(database.db), db: database.db };
}

export interface Operator {
  services: Services;
  db: Kysely<Database>;
}

let counter = 0;

/** A fresh workspace with a user and a key, made by the operator. */
export async function workspaceWithKey({ services }: Operator): Promise<{ id: number; key: string; keyId: string }> {
  counter += 1;
  const name = `multi-server ${process.pid}-${counter}`;
  const { id } = await services.accounts.createWorkspace(name);
  const email = `multi${counter}@example.com`;
  await services.accounts.createUser({ workspaceId: id, email, role: 'admin' });
  const { key, id: keyId } = await services.accounts.createKey({ workspaceId: id, email });
  return { id, key, keyId };
}
