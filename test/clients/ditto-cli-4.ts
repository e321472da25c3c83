import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { type RealServer, runClient } from './real-server.js';

// `@dittowords/cli` 4.0.0, the puller on the npm registry, run as its users run it: the v0 API at
// the host root, `Authorization: token <key>`.
const CLI = join(dirname(createRequire(import.meta.url).resolve('@dittowords/cli/package.json')), 'bin', 'ditto.js');

/**
 * A runner of the CLI against `server`: each run in a fresh folder holding `ditto/config.yml`
 * (written as JSON, which is YAML), the key in the environment, the global config file inside
 * the folder. It answers the run and every file the CLI left in `ditto/`.
 */
export function dittoCli4(server: RealServer, key: string) {
  const scratch = mkdtempSync(join(tmpdir(), 'copydesk-ditto-cli-4-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let runs = 0;

  return async (args: string[], config: object = {}, extraFiles: Record<string, string> = {}) => {
    runs += 1;
    const cwd = join(scratch, `run-${runs}`);
    const dir = join(cwd, 'ditto');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.yml'), JSON.stringify(config, null, 2));
    for (const [name, body] of Object.entries(extraFiles)) writeFileSync(join(cwd, name), body);
    const env = {
      // Its compile cache loads every module as CommonJS and fails on the .mjs files of newer packages.
      DISABLE_V8_COMPILE_CACHE: '1',
      DITTO_API_HOST: server.origin,
      DITTO_API_KEY: key,
      DITTO_CONFIG_FILE: join(cwd, 'global-config.yml'),
    };
    const run = await runClient(server, CLI, args, { cwd, env });
    const files = new Map(
      readdirSync(dir)
        .filter((name) => name !== 'config.yml')
        .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
    );
    return { run, files, dir };
  };
}
