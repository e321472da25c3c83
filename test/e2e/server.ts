import { loadConfig } from '../../src/config.js';
import { start } from '../../src/server.js';
import { onFreePort } from '../helpers/ports.js';
import { cachedSerializers } from '../helpers/serializers.js';

/**
 * A copydesk server on its own database, as a writer's browser reaches it: what `copydesk serve`
 * runs (`start` in src/server.ts: migrations, the first start's workspace, key and password link,
 * the webhook, email and translation workers, a real listening port), in the test's own process.
 * A child process would cost about 2.5 s of CPU a start, mostly loading modules this process has
 * loaded already; the process itself (signals, exit codes, its output) is test/cli/first-start's.
 */
export interface RealServer {
  base: string;
  key: string;
  passwordLink: string;
  /** What it printed: the first start's lines and its log (at LOG_LEVEL warn). */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * `extraEnv`: settings for this server only, such as letting webhooks reach a local receiver. The
 * configuration is read from the environment as `serve` reads it, this process's first.
 */
export async function startServer(databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<RealServer> {
  return onFreePort(
    (port) => startOnPort(databaseUrl, extraEnv, port),
    (error) => (error as Error).message.includes('EADDRINUSE'),
  );
}

async function startOnPort(databaseUrl: string, extraEnv: Record<string, string>, port: number): Promise<RealServer> {
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const { HOST: _h, PORT: _p, ...env } = process.env;
  const config = loadConfig({
    ...env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    ...extraEnv,
    PORT: String(port),
  });
  const server = await start(config, (line) => (output += `${line}\n`), {
    logger: { level: config.logLevel, stream: { write: (line: string) => (output += line) } },
    buildSerializer: cachedSerializers,
  }).catch((error: Error) => {
    throw new Error(`server did not start (${error.message}):\n${output}`);
  });
  const key = /API key:\s+(cdk_\S+)/.exec(output)?.[1] ?? '';
  const passwordLink = /password \(the link works once\): (\S+)/.exec(output)?.[1] ?? '';
  if (!key || !passwordLink) {
    await server.stop();
    throw new Error(`the first start printed no key or password link:\n${output}`);
  }
  return { base, key, passwordLink, output: () => output, stop: server.stop };
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
