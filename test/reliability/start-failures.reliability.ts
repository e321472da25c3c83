import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseUrl, freePort, report, runCopydesk } from './harness.js';

/**
 * A server that cannot start must say why in one line and exit non-zero within seconds, not keep
 * running half-started (before: a port in use printed EADDRINUSE and the process stayed up with its
 * webhook worker). Three causes: the port is taken, the database cannot be reached, the
 * configuration is wrong.
 */
const GIVE_UP_MS = 30_000;

/** A database path below a plain file: the directory can never be made, even by root. */
function notADirectory(): string {
  const file = join(tmpdir(), `copydesk-not-a-directory-${process.pid}`);
  writeFileSync(file, '');
  return join(file, 'db.sqlite');
}

describe('start failures', () => {
  it('exits non-zero with one line when the port is taken, the database is away or the config is bad', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((done) => taken.once('listening', done));
    const { port } = taken.address() as { port: number };
    const unreachable = databaseUrl.startsWith('postgres')
      ? `postgres://postgres@127.0.0.1:${await freePort()}/nowhere`
      : notADirectory();
    const cases = {
      portInUse: { HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: databaseUrl },
      databaseAway: { PORT: String(await freePort()), DATABASE_URL: unreachable },
      badConfig: { PORT: 'eighty', DATABASE_URL: databaseUrl },
    };
    const results: Record<string, { code: number | null; ms: number; lines: string[] }> = {};
    for (const [name, env] of Object.entries(cases)) {
      const run = await runCopydesk(['serve'], env, GIVE_UP_MS);
      const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
      results[name] = { code: run.code, ms: run.ms, lines };
    }
    taken.close();
    report('start failures', Object.fromEntries(Object.entries(results).map(([k, v]) => [k, { ...v }])));
    for (const [name, result] of Object.entries(results)) {
      // Killed by the scenario's deadline would be code null: the process must end on its own.
      expect(result.code, name).not.toBeNull();
      expect(result.code, name).not.toBe(0);
      expect(result.lines, name).toHaveLength(1);
    }
    expect(results.portInUse?.lines[0]).toMatch(new RegExp(String(port)));
    expect(results.badConfig?.lines[0]).toMatch(/PORT/);
  });
});
