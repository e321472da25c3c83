import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The lint rule against spreading an array into a call (lint/no-spread-call.grit, docs/scale.md),
 * run by Biome with the project's own configuration on fixture files in a scratch directory.
 */
const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'copydesk-lint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
delete config.$schema;
config.vcs = { enabled: false };
for (const override of config.overrides ?? []) {
  override.plugins = override.plugins?.map((plugin: string) => join(root, plugin));
}
writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));

/** The lines of `file` (under the scratch directory) the rule reports. */
async function reported(file: string, source: string): Promise<number[]> {
  mkdirSync(join(scratch, file, '..'), { recursive: true });
  writeFileSync(join(scratch, file), source);
  const biome = join(root, 'node_modules', '.bin', 'biome');
  const output = await promisify(execFile)(biome, ['lint', '--max-diagnostics=1000', '--colors=off', file], {
    cwd: scratch,
  }).then(
    (done) => done.stdout + done.stderr,
    (failed: { stdout: string; stderr: string }) => failed.stdout + failed.stderr,
  );
  const lines: number[] = [];
  for (const match of output.matchAll(/^\S+:(\d+):\d+ plugin/gm)) lines.push(Number(match[1]));
  return lines;
}

const SOURCE = `export function sample(rows: number[], more: number[], make: (...n: number[]) => void) {
  rows.push(...more);
  rows.unshift(0, ...more);
  const top = Math.max(...rows);
  make(...rows);
  const copy = new Set(...[rows]);
  const literal = [...rows, ...more];
  const object = { ...{ a: 1 } };
  // biome-ignore lint/plugin/no-spread-call: a fixed pair
  make(...[1, 2]);
  const codes = String.fromCharCode.apply(null, rows);
  make.call(null, 1);
  return [top, copy, literal, object, codes];
}
`;

describe('no spread of an array into a call', () => {
  it('reports every spread among call and new arguments and every apply in src/, none in literals or suppressed', async () => {
    expect(await reported('src/sample.ts', SOURCE)).toEqual([2, 3, 4, 5, 6, 11]);
  });

  it('checks the web app and the benches too', async () => {
    expect(await reported('web/src/sample.tsx', SOURCE)).toEqual([2, 3, 4, 5, 6, 11]);
    expect(await reported('bench/sample.ts', SOURCE)).toEqual([2, 3, 4, 5, 6, 11]);
  });

  it('leaves test files, which spread their own small fixtures, alone', async () => {
    expect(await reported('test/modules/sample.test.ts', SOURCE)).toEqual([]);
  });
});
