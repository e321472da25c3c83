import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { databaseUrl, report, runCopydesk, scaled } from './harness.js';

/**
 * `copydesk workspace copy` against sources that attack it: one that never answers (before: the
 * copy hung forever), one that sends an endless answer (before: 600 MB took the CLI to 1.38 GB),
 * and one that redirects to another origin (the key must never reach it). Each copy must end on
 * its own with exit 1 and one line naming the limit it hit, and the other origin must see no
 * request at all. (That a refused copy writes nothing is asserted in test/cli's copy tests.)
 */
const ENDLESS_MB = scaled(64, 600);

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

describe('hostile copy source', () => {
  it('gives up on a silent, an endless and a redirecting source with one line; the key stays home', async () => {
    const held: ServerResponse[] = [];
    const silent = await listen((_req, res) => held.push(res));
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const endless = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const more = () => {
        while (sent < ENDLESS_MB) {
          sent += 1;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => {});
      more();
    });
    const seenElsewhere: (string | undefined)[] = [];
    const elsewhere = await listen((req, res) => {
      seenElsewhere.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const redirecting = await listen((req, res) => {
      res.writeHead(302, { location: `${elsewhere.origin}${req.url}` }).end();
    });

    const copy = (from: string, extra: string[] = []) =>
      runCopydesk(
        ['workspace', 'copy', '--from', from, '--key', 'cdk_secret_key_of_the_source', ...extra],
        { DATABASE_URL: databaseUrl },
        120_000,
      );
    const runs = {
      silent: await copy(silent.origin, ['--request-timeout', '2']),
      endless: await copy(endless.origin, ['--max-response-mb', '16']),
      redirecting: await copy(redirecting.origin),
    };
    for (const res of held) res.destroy();
    for (const { server } of [silent, endless, elsewhere, redirecting]) server.close();

    const lines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('copydesk:'));
    report('hostile copy source', {
      endlessMiB: ENDLESS_MB,
      runs: Object.fromEntries(
        Object.entries(runs).map(([name, run]) => [name, { code: run.code, ms: run.ms, error: lines(run.stderr) }]),
      ),
      keysSeenElsewhere: seenElsewhere.length,
    });
    for (const [name, run] of Object.entries(runs)) {
      expect(run.code, name).toBe(1);
      expect(lines(run.stderr), name).toHaveLength(1);
    }
    expect(lines(runs.silent.stderr)[0]).toMatch(/--request-timeout/);
    expect(lines(runs.endless.stderr)[0]).toMatch(/--max-response-mb/);
    expect(lines(runs.redirecting.stderr)[0]).toContain(elsewhere.origin);
    expect(seenElsewhere).toEqual([]);
  });
});
