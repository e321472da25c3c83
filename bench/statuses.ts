/**
 * GET /v2/statuses with a valid key under 50 connections, against a bare Fastify route that
 * returns the same bytes, in the same run. Target: ratio of at least 0.5.
 * `npm run bench:statuses` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { spawn } from 'node:child_process';
import { cli, freePort, load, root, startServer, stop, tempDatabaseUrl, waitForHttp } from './lib.js';

const DATABASE_URL = tempDatabaseUrl();
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const workspace = JSON.parse(await cli(['workspace', 'create', '--name', 'bench', '--json'], { DATABASE_URL }));
await cli(['user', 'create', '--workspace', String(workspace.id), '--email', 'bench@example.com', '--json'], {
  DATABASE_URL,
});
const { key } = JSON.parse(
  await cli(['key', 'create', '--workspace', String(workspace.id), '--email', 'bench@example.com', '--json'], {
    DATABASE_URL,
  }),
);

const port = await freePort();
const server = startServer({ DATABASE_URL, PORT: String(port) });
const url = `http://127.0.0.1:${port}/v2/statuses`;
await waitForHttp(`http://127.0.0.1:${port}/readyz`);
const body = await (await fetch(url, { headers: { authorization: key } })).text();

const barePort = await freePort();
const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts', String(barePort), body], {
  cwd: root,
  stdio: 'inherit',
});
await waitForHttp(`http://127.0.0.1:${barePort}/`);

try {
  const headers = { authorization: key };
  const bareUrl = `http://127.0.0.1:${barePort}/`;
  await load(url, { connections: 50, duration: 2, headers }); // warm-up
  await load(bareUrl, { connections: 50, duration: 2 });
  // Rounds alternate between the two servers so that drift in the machine's load hits both alike.
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const a = await load(url, { connections: 50, duration, headers });
    if (a.non2xx || a.errors) throw new Error(`GET /v2/statuses: ${a.non2xx} non-2xx, ${a.errors} errors`);
    ours.push(a.rps);
    baseline.push((await load(bareUrl, { connections: 50, duration })).rps);
  }
  const ratio = median(ours) / median(baseline);
  console.log(
    `database: ${DATABASE_URL.startsWith('postgres') ? 'postgres' : 'sqlite'}, ${rounds} rounds of ${duration} s, 50 connections`,
  );
  console.log(
    `GET /v2/statuses: median ${median(ours).toFixed(0)} req/s (rounds: ${ours.map((r) => r.toFixed(0)).join(', ')})`,
  );
  console.log(
    `bare Fastify, same ${body.length} bytes: median ${median(baseline).toFixed(0)} req/s (rounds: ${baseline.map((r) => r.toFixed(0)).join(', ')})`,
  );
  console.log(`ratio ${ratio.toFixed(2)} (target >= 0.50): ${ratio >= 0.5 ? 'PASS' : 'FAIL'}`);
} finally {
  await stop(server);
  bare.kill('SIGTERM');
}
