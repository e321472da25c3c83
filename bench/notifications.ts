/**
 * Notifications at load, against a real server (`npm run build && npm run bench:notifications`;
 * BENCH_DATABASE_URL=postgres://... for PostgreSQL): 100 users, then comments that each mention all
 * of them, 10 comments per POST, until 10,000 notifications exist (`BENCH_NOTIFICATIONS`). The same
 * comments without mentions, alternating write by write, are the baseline: the difference is what
 * the mentions and their notifications cost. Prints notifications a second, the server's RSS (now
 * and its peak), and the reads one user makes: the unread count and the first page. With
 * `SMTP_URL` set (any address: the bench times the writes, not the sending), each notification also
 * queues an email in its write.
 */

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { bin, startBenchServer, stop } from './lib.js';

const USERS = 100;
const PER_WRITE = 10;
const TOTAL = Number(process.env.BENCH_NOTIFICATIONS ?? 10_000);

const status = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`));
  return line ? Number(line[1]) / 1024 : Number.NaN;
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const bench = await startBenchServer('bench notifications');
const pid = bench.server.pid as number;
try {
  await bench.call('POST', 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
  await bench.call('POST', 'textItems', { projectId: 'web', textItems: [{ developerId: 'title', text: 'Welcome' }] });
  const emails = Array.from({ length: USERS }, (_, n) => `reader${n}@example.com`);
  for (const email of emails) await bench.call('POST', 'users', { email, role: 'viewer' });
  const mentionAll = emails.map((e) => `@${e}`).join(' ');
  const idle = status(pid, 'VmRSS');

  const writes = Math.ceil(TOTAL / (USERS * PER_WRITE));
  const withMentions: number[] = [];
  const without: number[] = [];
  const post = async (body: string) => {
    const started = performance.now();
    await (
      await bench.call('POST', 'comments', {
        comments: Array.from({ length: PER_WRITE }, () => ({ textItemId: 'title', body })),
      })
    ).arrayBuffer();
    return performance.now() - started;
  };
  const started = performance.now();
  let mentionMs = 0;
  for (let n = 0; n < writes; n += 1) {
    const ms = await post(`Please look, ${mentionAll}`);
    mentionMs += ms;
    withMentions.push(ms);
    without.push(await post('Please look, everyone'));
  }
  const wall = performance.now() - started;
  const made = writes * PER_WRITE * USERS;
  console.log(
    `${made.toLocaleString('en')} notifications (${bench.database}) in ${writes} writes of ${PER_WRITE} comments x ${USERS} mentions: ` +
      `${(made / (mentionMs / 1000)).toFixed(0)} notifications/s over the writes that made them ` +
      `(median write ${median(withMentions).toFixed(0)} ms vs ${median(without).toFixed(0)} ms for the same comments without mentions; ` +
      `whole run ${(wall / 1000).toFixed(1)} s)`,
  );
  console.log(
    `server RSS: idle ${idle.toFixed(0)} MiB, after ${status(pid, 'VmRSS').toFixed(0)} MiB, peak ${status(pid, 'VmHWM').toFixed(0)} MiB`,
  );

  // One reader's view: their unread count and first page, with a key of their own.
  const keyOut = execFileSync(
    process.execPath,
    [bin, 'key', 'create', '--workspace', String(bench.workspaceId), '--email', emails[0] as string, '--json'],
    { env: { ...process.env, DATABASE_URL: bench.DATABASE_URL }, encoding: 'utf8' },
  );
  const key = JSON.parse(keyOut).key as string;
  const read = async (path: string) => {
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${bench.port}/v2/${path}`, { headers: { authorization: key } });
    const body = (await res.json()) as { unread: number };
    return { ms: performance.now() - t, body };
  };
  const counts: number[] = [];
  const pages: number[] = [];
  let unread = 0;
  for (let n = 0; n < 20; n += 1) {
    const c = await read('notifications/unread-count');
    counts.push(c.ms);
    unread = c.body.unread;
    pages.push((await read('notifications?limit=50')).ms);
  }
  console.log(
    `one reader with ${unread} unread: unread-count median ${median(counts).toFixed(1)} ms, first page of 50 median ${median(pages).toFixed(1)} ms (20 each)`,
  );
} finally {
  await stop(bench.server);
}
