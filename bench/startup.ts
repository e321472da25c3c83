/**
 * Start-up: `copydesk serve` on an existing database, from spawn to the first answered request.
 * Target: under 1 s. Run after `npm install` (which builds dist/): `npm run bench:startup`.
 */
import { performance } from 'node:perf_hooks';
import { cli, freePort, startServer, stop, tempDatabaseUrl, waitForHttp } from './lib.js';

const DATABASE_URL = tempDatabaseUrl();
await cli(['migrate'], { DATABASE_URL });
await cli(['workspace', 'create', '--name', 'bench'], { DATABASE_URL });

const runs: number[] = [];
for (let i = 0; i < 5; i++) {
  const port = await freePort();
  const started = performance.now();
  const server = startServer({ DATABASE_URL, PORT: String(port) });
  await waitForHttp(`http://127.0.0.1:${port}/readyz`);
  runs.push(performance.now() - started);
  await stop(server);
}
runs.sort((a, b) => a - b);
const median = runs[Math.floor(runs.length / 2)] ?? Number.NaN;
console.log(`database: ${DATABASE_URL.startsWith('postgres') ? 'postgres' : 'sqlite'}`);
console.log(`start-up to first answered request, ms: ${runs.map((r) => r.toFixed(0)).join(', ')}`);
console.log(`median ${median.toFixed(0)} ms (target < 1000 ms): ${median < 1000 ? 'PASS' : 'FAIL'}`);
