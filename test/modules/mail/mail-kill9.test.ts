import { afterAll, expect, it } from 'vitest';
import { loadConfig, parseDatabaseUrl } from '../../../src/config.js';
import { openDatabase } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { createServices } from '../../../src/services.js';
import { migratedSqlitePath, onPostgres, scratchPostgres } from '../../helpers/database.js';
import { startServerProcess } from '../../helpers/server-process.js';
import { waitFor } from '../../helpers/wait.js';
import { silentLog } from './helpers.js';
import { startSilentServer, startSmtpSink } from './smtp.js';

/**
 * A real `copydesk serve` killed with SIGKILL while it sends an invitation: the email stays in the
 * outbox, claimed by nobody alive, and another worker sends it once the dead one's lease is out.
 */
// A database of its own, on either run (a SQLite file, or a scratch PostgreSQL database on a
// PostgreSQL run): the server's worker takes every due email of its database, and in the shared
// test database it would take other test files' emails and die holding them.
const scratch = onPostgres() ? await scratchPostgres() : { url: migratedSqlitePath(), drop: async () => {} };
const url = scratch.url;
const handle = openDatabase(parseDatabaseUrl(url));
// Already migrated on a SQLite run (a copy of the template); a scratch PostgreSQL database is empty.
await migrateToLatest(handle.db);
const services = createServices(handle.db, {
  mail: { ...loadConfig({}).mail, smtpUrl: 'smtp://127.0.0.1:1' },
  publicUrl: 'http://127.0.0.1',
});
const sink = await startSmtpSink();
const silent = await startSilentServer();
afterAll(async () => {
  await silent.close();
  await sink.close();
  await handle.close();
  await scratch.drop();
});

it('an email claimed by a killed server is sent by another worker after the lease, once', {
  timeout: 60_000,
}, async () => {
  const { id } = await services.accounts.createWorkspace(`kill -9 ${process.pid}`);
  const admin = `admin-${process.pid}@example.com`;
  await services.accounts.createUser({ workspaceId: id, email: admin, role: 'admin' });
  const { key } = await services.accounts.createKey({ workspaceId: id, email: admin });
  // Its SMTP server takes the connection and never answers: the send hangs, as one killed mid-way.
  const server = await startServerProcess({ DATABASE_URL: url, SMTP_URL: silent.url, MAIL_POLL_MS: '20' });
  const invitee = `killed-${process.pid}@example.com`;
  const res = await server.call(key, 'POST', '/v2/users', { body: { email: invitee, role: 'viewer' } });
  expect(res.status, res.text).toBe(201);
  await waitFor(() => silent.connections() > 0, 'the server to start sending', { timeoutMs: 20_000 });
  const at = Date.now();
  process.kill(server.pid, 'SIGKILL');
  await waitFor(() => {
    try {
      process.kill(server.pid, 0);
      return false;
    } catch {
      return true;
    }
  }, 'the server to be gone');
  const worker = (now: number) => services.mail.worker(silentLog, { smtpUrl: sink.url, clock: { now: () => now } });
  // Still held by the dead server's claim (2 minutes) ...
  const early = worker(at + 60_000);
  expect(await early.runOnce()).toBe(0);
  await early.stop();
  // ... and sent once it has run out.
  const late = worker(at + 121_000);
  expect(await late.runOnce()).toBe(1);
  await waitFor(() => sink.to(invitee).length > 0, 'the invitation');
  expect(await late.runOnce()).toBe(0);
  await late.stop();
  expect(sink.to(invitee)).toHaveLength(1);
  // The email the killed server queued, as it wrote it: the link it answered.
  expect(sink.to(invitee)[0]?.text).toContain(JSON.parse(res.text).passwordLink);
});
