/**
 * Delivery (docs/releases.md#delivery) under load: a project of `BENCH_ITEMS` text items (1,000)
 * with a French value each, frozen into a release and published to a distribution, then under
 * 50 connections for `BENCH_SECONDS` (5) each:
 * - a pinned file (`/delivery/{token}/r1/fr/json_i18next/web`, 200 with the bytes);
 * - a `latest` revalidation (`If-None-Match` with the file's ETag: 304);
 * each as requests/s and as a ratio to a bare Fastify route serving the same bytes in the same run.
 * `npm run build && npm run bench:delivery` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { unlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, load, root, startBenchServer, stop, waitForHttp } from './lib.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000);
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;

const { port, server, call, database } = await startBenchServer('bench delivery');
try {
  await call('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
  await call('POST', 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
  for (let start = 0; start < ITEMS; start += 500) {
    const textItems = Array.from({ length: Math.min(500, ITEMS - start) }, (_, i) => ({
      developerId: `item-${String(start + i).padStart(6, '0')}`,
      text: `Text number ${start + i} for {{name}}`,
      variants: [{ variantId: 'fr', text: `Texte numéro ${start + i} pour {{name}}` }],
    }));
    await call('POST', 'textItems', { projectId: 'web', textItems });
  }
  await call('POST', 'releases', { name: 'r1', filter: { statuses: [] } });
  const made = (await (
    await call('POST', 'distributions', { name: 'bench', projects: ['web'], formats: ['json_i18next'] })
  ).json()) as { token: string };
  await call('POST', 'distributions/bench/publish', { release: 'r1' });
  const origin = `http://127.0.0.1:${port}`;
  const pinned = `${origin}/delivery/${made.token}/r1/fr/json_i18next/web`;
  const latest = `${origin}/delivery/${made.token}/latest/fr/json_i18next/web`;
  const first = await fetch(pinned);
  const body = Buffer.from(await first.arrayBuffer());
  const etag = String(first.headers.get('etag'));
  if (first.status !== 200) throw new Error(`${pinned}: ${first.status}`);
  const revalidated = await fetch(latest, { headers: { 'if-none-match': etag } });
  if (revalidated.status !== 304) throw new Error(`${latest}: ${revalidated.status}, not 304`);

  // The same bytes from a bare Fastify route, in the same run.
  const file = join(tmpdir(), `copydesk-bench-delivery-${process.pid}`);
  writeFileSync(file, body);
  const barePort = await freePort();
  const bare: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/bare-server.ts', String(barePort), `@${file}`, 'application/json; charset=utf-8'],
    { cwd: root, stdio: 'inherit' },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${barePort}/`);
    const run = async (url: string, headers: Record<string, string> = {}) => {
      await load(url, { connections: CONNECTIONS, duration: 2, headers });
      const result = await load(url, { connections: CONNECTIONS, duration, headers });
      if (result.errors > 0) throw new Error(`${url}: ${result.errors} errors`);
      return result;
    };
    const bareRun = await run(`http://127.0.0.1:${barePort}/`);
    const pinnedRun = await run(pinned);
    const latestRun = await run(latest, { 'if-none-match': etag });
    const bareAgain = await run(`http://127.0.0.1:${barePort}/`);
    const baseline = (bareRun.rps + bareAgain.rps) / 2;
    console.log(
      `delivery bench (${database}, ${ITEMS} items, file ${(body.length / 1024).toFixed(1)} KiB, ${CONNECTIONS} connections, ${duration} s, load ${loadavg()[0]?.toFixed(1)})`,
    );
    console.log(
      `bare route, same bytes:  ${baseline.toFixed(0)} req/s (runs: ${bareRun.rps.toFixed(0)}, ${bareAgain.rps.toFixed(0)})`,
    );
    console.log(
      `pinned file (200):       ${pinnedRun.rps.toFixed(0)} req/s, p99 ${pinnedRun.p99} ms, ratio ${(pinnedRun.rps / baseline).toFixed(2)}`,
    );
    console.log(
      `latest revalidation (304): ${latestRun.rps.toFixed(0)} req/s, p99 ${latestRun.p99} ms, ratio ${(latestRun.rps / baseline).toFixed(2)}`,
    );
  } finally {
    await stop(bare);
    unlinkSync(file);
  }
} finally {
  await stop(server);
}
