import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { main } from '../../src/cli/main.js';
import type { TestContext } from '../helpers/app.js';

/** A line of a version 2 backup file: the header, or a row of a table. */
export type Line = { table?: string; row?: Record<string, any>; [key: string]: any };

export const urlOf = (ctx: TestContext) =>
  ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : String(process.env.DATABASE_URL);

/** Runs the CLI in this process against the context's database. */
export async function copydesk(ctx: TestContext, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { DATABASE_URL: urlOf(ctx) },
  });
  return { code, out, err, json: () => JSON.parse(out.join('\n')) };
}

export const readLines = (file: string): Line[] =>
  gunzipSync(readFileSync(file))
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

export const writeLines = (file: string, lines: readonly Line[]) =>
  writeFileSync(file, gzipSync(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`));

/** The lines without what differs between two exports of one workspace by design. */
export function comparable(lines: readonly Line[]): Line[] {
  return lines.map((line, i) => {
    if (i === 0) {
      const { exportedAt: _at, ...header } = line;
      return header;
    }
    if (line.table !== 'apiKeys') return line;
    const { last_used_at: _used, ...row } = line.row ?? {};
    return { ...line, row };
  });
}

/**
 * The workspaces whose name starts with `prefix`: the test's own source and whatever a restore of
 * its files made. Other test files write to the same PostgreSQL database at the same time, so a
 * count of every workspace would see their work too.
 */
export async function workspaceCount(ctx: TestContext, prefix: string): Promise<number> {
  const rows = await ctx.database.db
    .selectFrom('workspaces')
    .select('id')
    .where('name', 'like', `${prefix}%`)
    .execute();
  return rows.length;
}
