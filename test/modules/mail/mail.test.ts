import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { anotherServer, apiClient, createWorkspace, type Workspace } from '../../helpers/app.js';
import { manualClock } from '../../helpers/clock.js';
import { freePort } from '../../helpers/ports.js';
import { waitFor } from '../../helpers/wait.js';
import { setupMailApp, silentLog, smtpSink } from './helpers.js';
import { type ReceivedEmail, startSilentServer, startSmtpSink } from './smtp.js';

/** Emails queued by real writes, sent by a mail worker to a real SMTP server in this process. */
const ctx = await setupMailApp();

let people = 0;
const someone = (what = 'person') => {
  people += 1;
  return `${what}${people}@example.com`;
};

/**
 * The workspaces of this file, the only ones its workers send for: on PostgreSQL other test files
 * share the database, and a worker with its clock a day ahead would send their emails too.
 */
const mine: number[] = [];
async function newWorkspace(name?: string): Promise<Workspace> {
  const workspace = await createWorkspace(ctx, name);
  mine.push(workspace.id);
  return workspace;
}

/** A worker of `services` (this app's by default) for this file's emails. */
function workerOf(options: Parameters<typeof ctx.services.mail.worker>[1] = {}, services = ctx.services) {
  return services.mail.worker(silentLog, { workspaceIds: mine, ...options });
}

/** Workers of `services` (this app's by default) sending to the sink; stopped after the file. */
const { sink, sinkWorker } = await smtpSink(ctx, mine);

const worker = sinkWorker();

async function invite(workspace: Workspace, email: string, role = 'editor') {
  const res = await workspace.api.post('users', { email, role });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // This server sends email: the answer says the invitation was emailed.
  expect(res.body.emailed).toBe(true);
  return res.body as { email: string; passwordLink: string };
}

async function onlyEmailTo(address: string): Promise<ReceivedEmail> {
  await waitFor(() => sink.to(address).length > 0, `an email to ${address}`);
  const emails = sink.to(address);
  expect(emails).toHaveLength(1);
  return emails[0] as ReceivedEmail;
}

const unsubscribeUrlOf = (email: ReceivedEmail) => {
  const header = email.headers.get('list-unsubscribe') ?? '';
  const url = /^<(https:\/\/copy\.example\.com\/v2\/email\/unsubscribe\?token=[^>]+)>$/.exec(header)?.[1];
  expect(url, header).toBeDefined();
  return new URL(url as string);
};

/** The API as `email`, a user of `workspace`, with a key of their own. */
async function apiOf(workspace: Workspace, email: string) {
  const { key } = await ctx.services.accounts.createKey({ workspaceId: workspace.id, email });
  return apiClient(ctx.app, key);
}

describe('invitations and password links', () => {
  it('emails an invitation with its link, and answers the same link to the admin', async () => {
    const workspace = await newWorkspace('Mail');
    const ann = someone('ann');
    const { passwordLink } = await invite(workspace, ann);
    expect(passwordLink).toMatch(/^https:\/\/copy\.example\.com\/set-password#token=/);
    expect(await worker.runOnce()).toBe(1);
    const email = await onlyEmailTo(ann);
    expect(email.envelopeTo).toEqual([ann]);
    expect(email.headers.get('to')).toBe(ann);
    expect(email.headers.get('from')).toBe('copydesk <copydesk@copy.example.com>');
    expect(email.headers.get('subject')).toMatch(/^You are invited to Mail \d+ on copydesk$/);
    expect(email.text).toContain(`${workspace.email} invited you to the workspace`);
    expect(email.text).toContain(passwordLink);
    expect(email.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(unsubscribeUrlOf(email).searchParams.get('token')).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(email.text).toContain(unsubscribeUrlOf(email).href);
    expect(email.headers.get('message-id')).toMatch(/^<[0-9a-f-]{36}@copy\.example\.com>$/);
    // Sent is sent: the next pass finds nothing.
    expect(await worker.runOnce()).toBe(0);
    expect(sink.to(ann)).toHaveLength(1);
  });

  it('emails a new password link to the user', async () => {
    const workspace = await newWorkspace();
    const bob = someone('bob');
    await invite(workspace, bob);
    await worker.runOnce();
    await onlyEmailTo(bob);
    const res = await workspace.api.post(`users/${bob}/passwordLink`, {});
    expect(res.status).toBe(201);
    expect(await worker.runOnce()).toBe(1);
    await waitFor(() => sink.to(bob).length === 2, 'the second email');
    const second = sink.to(bob)[1] as ReceivedEmail;
    expect(second.headers.get('subject')).toMatch(/^Set your copydesk password for /);
    expect(second.text).toContain(res.body.passwordLink);
    expect(second.headers.get('message-id')).not.toBe(sink.to(bob)[0]?.headers.get('message-id'));
  });

  it('queues nothing when the invitation fails', async () => {
    const workspace = await newWorkspace();
    const carl = someone('carl');
    await invite(workspace, carl);
    const again = await workspace.api.post('users', { email: carl, role: 'viewer' });
    expect(again.status).toBe(409);
    const missing = await workspace.api.post(`users/${someone('nobody')}/passwordLink`, {});
    expect(missing.status).toBe(404);
    expect(await worker.runOnce()).toBe(1);
    expect((await onlyEmailTo(carl)).headers.get('subject')).toMatch(/^You are invited/);
  });
});

describe('email preference', () => {
  it('is instant until the user chooses, and only they choose it', async () => {
    const workspace = await newWorkspace();
    const dana = someone('dana');
    await invite(workspace, dana, 'viewer');
    await worker.runOnce();
    const api = await apiOf(workspace, dana);
    expect((await api.get('users/me/notifications')).body).toEqual({ email: 'instant', smtpConfigured: true });
    const set = await api.put('users/me/notifications', { email: 'daily' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ email: 'daily', smtpConfigured: true });
    expect((await api.get('users/me/notifications')).body.email).toBe('daily');
    // The admin's own preference is untouched.
    expect((await workspace.api.get('users/me/notifications')).body.email).toBe('instant');
  });

  it('refuses an unknown choice, naming the field', async () => {
    const workspace = await newWorkspace();
    const res = await workspace.api.put('users/me/notifications', { email: 'weekly' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('email must be one of: "instant", "daily", "off"');
    expect((await apiClient(ctx.app, null).get('users/me/notifications')).status).toBe(401);
  });
});

describe('daily digest', () => {
  /** Queues a notification for `email` as another module's write would, in a transaction. */
  async function notify(workspace: Workspace, email: string, n: number) {
    const userId = (await ctx.services.accounts.userIdsByEmail(workspace.id)).get(email) as number;
    await ctx.database.db.transaction().execute((trx) =>
      ctx.services.mail.service.enqueue(trx, {
        workspaceId: workspace.id,
        userId,
        to: email,
        kind: 'test_notification',
        subject: `Notification ${n}`,
        text: `Something happened, number ${n}.`,
        link: { url: `https://copy.example.com/things/${n}`, label: 'Open it' },
        digest: true,
      }),
    );
  }

  it('gathers the notifications of a daily user into one email at the digest hour, sent once', async () => {
    const workspace = await newWorkspace();
    const kim = someone('kim');
    await invite(workspace, kim);
    await worker.runOnce();
    await onlyEmailTo(kim);
    const api = await apiOf(workspace, kim);
    await api.put('users/me/notifications', { email: 'daily' });
    await notify(workspace, kim, 1);
    await notify(workspace, kim, 2);
    // Account emails do not wait for the digest.
    await workspace.api.post(`users/${kim}/passwordLink`, {});
    expect(await worker.runOnce()).toBe(1);
    await waitFor(() => sink.to(kim).length === 2, 'the password link');
    expect(await worker.runOnce()).toBe(0);
    // The next digest hour is at most 24 h away: two servers' passes at once make one digest.
    const tomorrow = { now: () => Date.now() + 25 * 3_600_000 };
    const second = await anotherServer(ctx);
    const [a, b] = await Promise.all([
      sinkWorker({ clock: tomorrow }).runOnce(),
      sinkWorker({ clock: tomorrow }, second.services).runOnce(),
    ]);
    expect(a + b).toBe(1);
    await waitFor(() => sink.to(kim).length === 3, 'the digest');
    const digest = sink.to(kim)[2] as ReceivedEmail;
    expect(digest.headers.get('subject')).toBe('Your copydesk digest: 2 notifications');
    expect(digest.text).toContain('## Notification 1\n\nSomething happened, number 1.');
    expect(digest.text).toContain('https://copy.example.com/things/2');
    expect(digest.text.indexOf('Notification 1')).toBeLessThan(digest.text.indexOf('Notification 2'));
    expect(digest.headers.get('list-unsubscribe')).toMatch(/^<https:\/\/copy\.example\.com\/v2\/email\/unsubscribe/);
    expect(await sinkWorker({ clock: { now: () => Date.now() + 50 * 3_600_000 } }).runOnce()).toBe(0);
    expect(sink.to(kim)).toHaveLength(3);
  });

  it('sends a notification at once to an instant user, and none to a user who turned email off', async () => {
    const workspace = await newWorkspace();
    const lee = someone('lee');
    const max = someone('max');
    await invite(workspace, lee);
    await invite(workspace, max);
    await worker.runOnce();
    await (await apiOf(workspace, max)).put('users/me/notifications', { email: 'off' });
    await notify(workspace, lee, 3);
    await notify(workspace, max, 4);
    expect(await worker.runOnce()).toBe(1);
    await waitFor(() => sink.to(lee).length === 2, 'the notification');
    expect(sink.to(lee)[1]?.headers.get('subject')).toBe('Notification 3');
    expect(sink.to(max)).toHaveLength(1);
  });
});

describe('unsubscribe link', () => {
  it('works without signing in, turns email off, and no more is sent', async () => {
    const workspace = await newWorkspace();
    const erin = someone('erin');
    await invite(workspace, erin);
    await worker.runOnce();
    const url = unsubscribeUrlOf(await onlyEmailTo(erin));
    const anonymous = apiClient(ctx.app, null);
    const target = `${url.pathname}${url.search}`;
    // Opening the link shows a button; it changes nothing (link checkers open every link).
    const page = await anonymous.get(target);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<form method="post"');
    const api = await apiOf(workspace, erin);
    expect((await api.get('users/me/notifications')).body.email).toBe('instant');
    // A mail client's one-click POST (RFC 8058).
    const res = await ctx.app.inject({
      method: 'POST',
      url: target,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await api.get('users/me/notifications')).body.email).toBe('off');
    // A new password link is still answered to the admin, and not emailed.
    const link = await workspace.api.post(`users/${erin}/passwordLink`, {});
    expect(link.status).toBe(201);
    expect(link.body.emailed).toBe(false);
    expect(await worker.runOnce()).toBe(0);
    expect(sink.to(erin)).toHaveLength(1);
    // Turned on again by the user.
    await api.put('users/me/notifications', { email: 'instant' });
    expect((await workspace.api.post(`users/${erin}/passwordLink`, {})).body.emailed).toBe(true);
    expect(await worker.runOnce()).toBe(1);
    await waitFor(() => sink.to(erin).length === 2, 'the email after turning email on');
  });

  it('refuses a token that was not signed by this server', async () => {
    const workspace = await newWorkspace();
    const fay = someone('fay');
    await invite(workspace, fay);
    await worker.runOnce();
    const url = unsubscribeUrlOf(await onlyEmailTo(fay));
    const token = url.searchParams.get('token') as string;
    const [userId, mac] = token.split('.') as [string, string];
    const forged = [
      `${Number(userId) + 1}.${mac}`,
      `${userId}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`,
      'nonsense',
      '',
    ];
    for (const bad of forged) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/v2/email/unsubscribe?token=${encodeURIComponent(bad)}`,
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message, bad).toMatch(/token/);
    }
    // Opened in a browser, a bad link shows a page saying so, with no button; its form's POST
    // (a browser asks for HTML) is answered with a page too.
    for (const bad of forged.filter((t) => t !== '')) {
      const url = `/v2/email/unsubscribe?token=${encodeURIComponent(bad)}`;
      const opened = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(opened.statusCode, bad).toBe(400);
      expect(opened.headers['content-type'], bad).toMatch(/^text\/html/);
      expect(opened.body, bad).toContain('This unsubscribe link is not valid');
      expect(opened.body, bad).not.toContain('<form');
      const posted = await ctx.app.inject({
        method: 'POST',
        url,
        headers: {
          accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(posted.statusCode, bad).toBe(400);
      expect(posted.headers['content-type'], bad).toMatch(/^text\/html/);
      expect(posted.body, bad).toContain('This unsubscribe link is not valid');
    }
    const api = await apiOf(workspace, fay);
    expect((await api.get('users/me/notifications')).body.email).toBe('instant');
  });

  it('takes back an email queued before the user unsubscribed', async () => {
    const workspace = await newWorkspace();
    const gus = someone('gus');
    await invite(workspace, gus);
    await worker.runOnce();
    const url = unsubscribeUrlOf(await onlyEmailTo(gus));
    await workspace.api.post(`users/${gus}/passwordLink`, {});
    const res = await ctx.app.inject({ method: 'POST', url: `${url.pathname}${url.search}` });
    expect(res.statusCode).toBe(200);
    expect(await worker.runOnce()).toBe(1);
    expect(sink.to(gus)).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('tries again while the SMTP server is down, and sends once when it is back', async () => {
    const port = await freePort();
    const workspace = await newWorkspace();
    const hal = someone('hal');
    await invite(workspace, hal);
    const clock = manualClock();
    const down = workerOf({ smtpUrl: `smtp://127.0.0.1:${port}`, clock });
    expect(await down.runOnce()).toBe(1);
    // Not due again before the first retry (30 s, ±20%).
    await clock.advance(23_000);
    expect(await down.runOnce()).toBe(0);
    const back = await startSmtpSink(port);
    try {
      await clock.advance(14_000);
      expect(await down.runOnce()).toBe(1);
      await waitFor(() => back.to(hal).length > 0, 'the email once the server is back');
      await clock.advance(3_600_000);
      expect(await down.runOnce()).toBe(0);
      expect(back.to(hal)).toHaveLength(1);
    } finally {
      // The worker's idle SMTP connection first: the server waits for its connections to end.
      await down.stop();
      await back.close();
    }
  });

  it('gives up at once on a recipient the server refuses for good', async () => {
    const refusing = await startSmtpSink();
    const workspace = await newWorkspace();
    const ivy = someone('ivy');
    refusing.refuse(ivy);
    await invite(workspace, ivy);
    const clock = manualClock();
    const refuse = workerOf({ smtpUrl: refusing.url, clock });
    try {
      expect(await refuse.runOnce()).toBe(1);
      await clock.advance(80 * 3_600_000);
      expect(await refuse.runOnce()).toBe(0);
      expect(refusing.to(ivy)).toHaveLength(0);
    } finally {
      await refuse.stop();
      await refusing.close();
    }
  });

  it('sends an email claimed by a worker that died once its lease runs out, and only then', async () => {
    const silent = await startSilentServer();
    const workspace = await newWorkspace();
    const jo = someone('jo');
    await invite(workspace, jo);
    const start = Date.now();
    const dying = workerOf({ smtpUrl: silent.url, clock: { now: () => start } });
    // The dying worker claims the email and hangs in the SMTP greeting, as a killed process would never finish.
    const hung = dying.runOnce();
    await waitFor(() => silent.connections() > 0, 'the dying worker to connect');
    const early = sinkWorker({ clock: { now: () => start + 119_000 } });
    expect(await early.runOnce()).toBe(0);
    const late = sinkWorker({ clock: { now: () => start + 121_000 } });
    expect(await late.runOnce()).toBe(1);
    await onlyEmailTo(jo);
    // The dead worker's send ends (its server lets go): its claim is lost, it records nothing.
    await silent.close();
    expect(await hung).toBe(1);
    await dying.stop();
    const after = sinkWorker({ clock: { now: () => start + 10 * 3_600_000 } });
    expect(await after.runOnce()).toBe(0);
    expect(sink.to(jo)).toHaveLength(1);
  });

  it('starts no send in the second half of a lease, and gives back what it did not start', async () => {
    const workspace = await newWorkspace();
    const three = [someone('slow'), someone('slow'), someone('slow')];
    for (const email of three) await invite(workspace, email);
    let now = Date.now();
    const started: string[] = [];
    // An SMTP server so slow that one email takes a minute.
    const slow = workerOf({
      concurrency: 1,
      clock: { now: () => now },
      sender: {
        async send(message) {
          started.push(message.to);
          now += 61_000;
          return { ok: true };
        },
        close() {},
      },
    });
    expect(await slow.runOnce()).toBe(3);
    expect(started).toEqual([three[0]]);
    await slow.stop();
    // The other two are due again at once, not after the lease.
    expect(await sinkWorker({ clock: { now: () => now } }).runOnce()).toBe(2);
    await waitFor(() => sink.to(three[2] as string).length > 0, 'the emails given back');
    expect(sink.to(three[0] as string)).toHaveLength(0);
    expect(sink.to(three[1] as string)).toHaveLength(1);
  });

  it('two servers on one database never send one email twice', async () => {
    const second = await anotherServer(ctx);
    const workspace = await newWorkspace();
    const many = Array.from({ length: 30 }, () => someone('crowd'));
    for (const email of many) await invite(workspace, email);
    const one = sinkWorker({ concurrency: 2 });
    const other = sinkWorker({ concurrency: 2 }, second.services);
    one.start();
    other.start();
    await waitFor(() => many.every((email) => sink.to(email).length > 0), 'every invitation', { timeoutMs: 20_000 });
    await Promise.all([one.stop(), other.stop()]);
    for (const email of many) expect(sink.to(email), email).toHaveLength(1);
    const ids = many.map((email) => sink.to(email)[0]?.headers.get('message-id'));
    expect(new Set(ids).size).toBe(many.length);
  });
});

describe('configuration', () => {
  it('reads SMTP_URL and MAIL_FROM, and refuses what is not SMTP, naming the variable', () => {
    expect(loadConfig({}).mail.smtpUrl).toBeNull();
    const config = loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', PUBLIC_URL: 'https://copy.example.org' });
    expect(config.mail.smtpUrl).toBe('smtps://u:p@mail.example.com:465');
    expect(config.mail.from).toBe('copydesk <copydesk@copy.example.org>');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080' }).mail.from).toBe('copydesk <copydesk@localhost>');
    expect(loadConfig({ MAIL_FROM: 'Docs <docs@example.com>' }).mail.from).toBe('Docs <docs@example.com>');
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ MAIL_DIGEST_HOUR_UTC: '24' })).toThrow(/MAIL_DIGEST_HOUR_UTC/);
  });
});
