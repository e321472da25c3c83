/**
 * GET /v2/statuses with a valid key under 50 connections, against a bare Fastify route that
 * returns the same bytes, in the same run. Target: ratio of at least 0.5.
 * `npm run bench:statuses` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { spawn } from 'node:child_process';
import { cli, freePort, load, root, startServer, stop, tempDatabaseUrl, waitForHttp } from './lib.js';

const DATABASE_URL = tempDatabaseUrl();
const duration = Number(process.env.BENCH_SECONDS ?? 10);
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
  await load(url, { connections: 50, duration: 2, headers }); // warm-up
  const ours = await load(url, { connections: 50, duration, headers });
  await load(`http://127.0.0.1:${barePort}/`, { connections: 50, duration: 2 });
  const baseline = await load(`http://127.0.0.1:${barePort}/`, { connections: 50, duration });
  const ratio = ours.rps / baseline.rps;
  console.log(
    `database: ${DATABASE_URL.startsWith('postgres') ? 'postgres' : 'sqlite'}, ${duration} s per run, 50 connections`,
  );
  console.log(
    `GET /v2/statuses: ${ours.rps.toFixed(0)} req/s (p99 ${ours.p99} ms, non-2xx ${ours.non2xx}, errors ${ours.errors})`,
  );
  console.log(`bare Fastify, same ${body.length} bytes: ${baseline.rps.toFixed(0)} req/s (p99 ${baseline.p99} ms)`);
  console.log(`ratio ${ratio.toFixed(2)} (target >= 0.50): ${ratio >= 0.5 ? 'PASS' : 'FAIL'}`);
} finally {
  await stop(server);
  bare.kill('SIGTERM');
}
