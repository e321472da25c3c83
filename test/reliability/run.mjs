#!/usr/bin/env node
// npm run reliability [-- --short] [-- --no-build]: builds dist/ (the scenarios start real server
// processes from it), then runs the scenarios of test/reliability with vitest. The short form (CI)
// runs fewer cycles and requests and only the scenarios in SHORT_SCENARIOS; the full form runs
// every *.reliability.ts file, so a new scenario is one new file.
import { spawnSync } from 'node:child_process';

const SHORT_SCENARIOS = [
  'test/reliability/fuzz-openapi.reliability.ts',
  'test/reliability/kill9.reliability.ts',
  'test/reliability/slow-clients.reliability.ts',
  'test/reliability/lint-bomb.reliability.ts',
  'test/reliability/redis-away.reliability.ts',
  'test/reliability/forwarded-for.reliability.ts',
  'test/reliability/start-failures.reliability.ts',
  'test/reliability/deep-nesting.reliability.ts',
  'test/reliability/sign-in.reliability.ts',
  'test/reliability/small-defects.reliability.ts',
  'test/reliability/corrupt-restore.reliability.ts',
  'test/reliability/hostile-copy-source.reliability.ts',
  'test/reliability/large-workspace.reliability.ts',
];

const args = process.argv.slice(2);
const short = args.includes('--short') || process.env.RELIABILITY_SHORT === '1';
const rest = args.filter((a) => a !== '--short' && a !== '--no-build');
const run = (command, commandArgs, env = {}) => {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!args.includes('--no-build')) run('npm', ['run', 'build']);
run(
  'npx',
  [
    'vitest',
    'run',
    '--config',
    'test/reliability/vitest.config.ts',
    ...(short && rest.length === 0 ? SHORT_SCENARIOS : rest),
  ],
  { RELIABILITY_SHORT: short ? '1' : '0' },
);
