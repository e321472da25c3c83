import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { TestContext } from '../helpers/app.js';

/** One request a client made, with the answer it got: what a failing assertion prints. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  body: string;
}

export interface RealServer {
  origin: string;
  exchanges: Exchange[];
}

function decode(body: Buffer, encoding: unknown): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  if (encoding === 'deflate') return inflateSync(body).toString('utf8');
  return body.toString('utf8');
}

/** Records every exchange; runs before Fastify's own listener so the body is seen whole. */
function record(exchanges: Exchange[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
    };
    const { write, end } = res;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return (write as (...a: unknown[]) => boolean).call(res, chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return (end as (...a: unknown[]) => ServerResponse).call(res, chunk, ...rest);
    }) as typeof res.end;
    res.on('finish', () => {
      const body = decode(Buffer.concat(chunks), res.getHeader('content-encoding'));
      exchanges.push({ method: req.method ?? '', url: req.url ?? '', status: res.statusCode, body });
    });
  };
}

/** The suite's app listening on a free loopback port (closed with the app after the file). */
export async function listen(ctx: TestContext): Promise<RealServer> {
  const exchanges: Exchange[] = [];
  ctx.app.server.prependListener('request', record(exchanges));
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { origin: `http://127.0.0.1:${address.port}`, exchanges };
}

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The exchanges made during this run. */
  exchanges: Exchange[];
}

const LOOPBACK_ONLY = fileURLToPath(new URL('./loopback-only.cjs', import.meta.url));

/**
 * Runs a client's entry file in a child process with only the given environment (no proxy, no
 * telemetry keys from the parent) and stdin closed, so a prompt ends the run instead of waiting.
 * Asynchronous on purpose: the server answering it lives in this process.
 */
export function runClient(
  server: RealServer,
  entry: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<ClientRun> {
  const first = server.exchanges.length;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', LOOPBACK_ONLY, entry, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.cwd, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut, exchanges: server.exchanges.slice(first) });
    });
  });
}

/** A run summarised for an assertion message: exit, output, and every request that failed. */
export function describeRun(run: ClientRun): string {
  const failed = run.exchanges.filter((e) => e.status >= 400);
  const lines = [
    `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}`,
    `stdout: ${run.stdout.slice(0, 2000)}`,
    `stderr: ${run.stderr.slice(0, 2000)}`,
    ...run.exchanges.map((e) => `${e.method} ${e.url} -> ${e.status}`),
    ...failed.map((e) => `FAILED ${e.method} ${e.url} -> ${e.status} ${e.body.slice(0, 500)}`),
  ];
  return lines.join('\n');
}
