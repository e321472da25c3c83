/**
 * Email at load, against a real server sending to a real SMTP server in this process
 * (`npm run build && npm run bench:mail`; BENCH_DATABASE_URL=postgres://... for PostgreSQL;
 * `MAIL_CONCURRENCY` is the server's):
 * 1. Invitations: BENCH_EMAILS (10,000) `POST /v2/users`, 8 at a time, each queueing an email in its
 *    write; invitations a second, then how long until the last email arrived.
 * 2. The outbox drained: BENCH_EMAILS emails queued at once (one SQL insert), sent a second.
 * Both print the server's RSS, idle and at its peak (target: >= 200 emails/s drained on SQLite;
 * RSS growth under 100 MiB).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { SMTPServer } from 'smtp-server';
import { parseDatabaseUrl } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { startBenchServer, stop } from './lib.js';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 10_000);
const CLIENTS = 8;

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => {
      received += 1;
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
process.env.MAIL_POLL_MS = '100';

const rssMiB = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : Number.NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const bench = await startBenchServer('bench mail');
const pid = bench.server.pid as number;
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMiB(pid));
}, 100);
/** Waits until `count` emails arrived; answers the seconds it took from `since`. */
async function arrived(count: number, since: number): Promise<number> {
  while (received < count) await sleep(5);
  return (performance.now() - since) / 1000;
}

try {
  await sleep(1000);
  const idle = rssMiB(pid);
  peak = idle;

  // 1. Invitations through the API: each write queues its email; the worker sends meanwhile.
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < EMAILS) {
        const n = next++;
        await (await bench.call('POST', 'users', { email: `invitee${n}@example.com`, role: 'viewer' })).arrayBuffer();
      }
    }),
  );
  const invited = (performance.now() - started) / 1000;
  const allSent = await arrived(EMAILS, started);
  console.log(
    `invitations (${bench.database}): ${EMAILS} in ${invited.toFixed(1)} s, ${(EMAILS / invited).toFixed(0)}/s; ` +
      `the last email arrived after ${allSent.toFixed(1)} s (${(EMAILS / allSent).toFixed(0)} emails/s end to end); ` +
      `RSS idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB (+${(peak - idle).toFixed(0)} MiB)`,
  );

  // 2. A full outbox drained: rows queued in one transaction, as many writes at once would leave them.
  await sleep(1000);
  const idle2 = rssMiB(pid);
  peak = idle2;
  const database = openDatabase(parseDatabaseUrl(bench.DATABASE_URL));
  const { db } = database;
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'bench@example.com')
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  const before = received;
  const queued = performance.now();
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < EMAILS; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, EMAILS - start) }, (_, i) => ({
        workspace_id: bench.workspaceId,
        user_id: user.id,
        kind: 'bench',
        to_address: `drain${start + i}@example.com`,
        subject: `Bench email ${start + i}`,
        body_text: `Email ${start + i} of the drain bench.\n`,
        body_html: `<p>Email ${start + i} of the drain bench.</p>`,
        message_id: `<${randomUUID()}@bench.example.com>`,
        unsubscribe_url: 'http://127.0.0.1/v2/email/unsubscribe?token=x',
        state: 'pending',
        due_at: at,
        created_at: at,
      }));
      await trx.insertInto('email_outbox').values(rows).execute();
    }
  });
  const seconds = await arrived(before + EMAILS, queued);
  let left = 1;
  while (left > 0) {
    const row = await db
      .selectFrom('email_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    left = Number(row.n);
    if (left > 0) await sleep(50);
  }
  const recorded = (performance.now() - queued) / 1000;
  console.log(
    `drained ${EMAILS} queued emails (${bench.database}) in ${seconds.toFixed(1)} s: ${(EMAILS / seconds).toFixed(0)}/s ` +
      `(all recorded sent after ${recorded.toFixed(1)} s); RSS idle ${idle2.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB ` +
      `(+${(peak - idle2).toFixed(0)} MiB); ${received} emails received in all`,
  );
  await database.close();
} finally {
  clearInterval(sampler);
  await stop(bench.server);
  smtp.close();
}
