import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { cliArguments } from '../helpers/server-build.js';
import { waitFor } from '../helpers/wait.js';

/** A real `copydesk serve` process on its own database, as a writer's browser would reach it. */
export interface RealServer {
  base: string;
  key: string;
  passwordLink: string;
  output: () => string;
  stop: () => Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** `extraEnv`: settings for this server only, such as letting webhooks reach a local receiver. */
export async function startServer(databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<RealServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { HOST: _h, PORT: _p, ...env } = process.env;
  const child: ChildProcess = spawn(process.execPath, cliArguments(['serve', '--port', String(port)]), {
    cwd: ROOT,
    env: { ...env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error('the server exited');
      return /password \(the link works once\): \S+/.test(output);
    },
    'the first start to print the password link',
    { timeoutMs: 30_000, everyMs: 50 },
  ).catch((error: Error) => {
    // The file's afterAll has no server to stop yet: nothing else would end this process.
    child.kill('SIGKILL');
    throw new Error(`server did not start (${error.message}):\n${output}`);
  });
  const key = /API key:\s+(cdk_\S+)/.exec(output)?.[1] ?? '';
  const passwordLink = /password \(the link works once\): (\S+)/.exec(output)?.[1] ?? '';
  return {
    base,
    key,
    passwordLink,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The API with the first start's key, to prepare what the browser will see. */
export function keyed(server: RealServer) {
  return async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.base}/v2/${path}`, {
      method,
      headers: { authorization: server.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}
