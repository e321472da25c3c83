import { main } from '../../src/cli/main.js';
import type { TestContext } from './app.js';
import { onPostgres } from './database.js';

/**
 * The command-line tool run in this process against the database of `target` (the suite's
 * PostgreSQL database, or `target`'s SQLite file), as `copydesk ...argv` would: what it printed
 * on out and err, its exit code, and the message of a JSON error line (`--json`), if any.
 * `onOut` sees each line printed on out as it is printed, for a test that acts on progress.
 */
export function cliOn(target: TestContext, onOut: (line: string) => void = () => {}) {
  const env = { DATABASE_URL: onPostgres() ? String(process.env.DATABASE_URL) : sqlitePathOf(target) };
  return async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, {
      out: (t) => {
        out.push(t);
        onOut(t);
      },
      err: (t) => err.push(t),
      env,
    });
    const last = err.at(-1);
    const error = last?.startsWith('{"error"') ? (JSON.parse(last).error as string) : undefined;
    return { code, out, err, error };
  };
}

function sqlitePathOf(target: TestContext): string {
  const config = target.config.database;
  if (config.kind !== 'sqlite') throw new Error('expected SQLite');
  return config.path;
}
