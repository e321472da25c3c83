import { describe, expect, it } from 'vitest';
import { type Api, apiClient, createWorkspace, type Workspace } from '../../helpers/app.js';
import { waitFor } from '../../helpers/wait.js';
import { setupMailApp, smtpSink } from '../mail/helpers.js';
import type { ReceivedEmail } from '../mail/smtp.js';

/** Notifications emailed by real writes, sent by a mail worker to a real SMTP server in this process. */
const ctx = await setupMailApp();

/** This file's workspaces, the only ones its workers send for (other files share PostgreSQL). */
const mine: number[] = [];
const { sink, sinkWorker } = await smtpSink(ctx, mine);
const worker = sinkWorker();

let counter = 0;
async function member(ws: Workspace): Promise<{ email: string; api: Api }> {
  counter += 1;
  const email = `reader${counter}-${ws.id}@example.com`;
  await ctx.services.accounts.createUser({ workspaceId: ws.id, email, name: `Reader ${counter}`, role: 'editor' });
  const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email });
  return { email, api: apiClient(ctx.app, key) };
}

async function world(): Promise<Workspace> {
  const ws = await createWorkspace(ctx, 'Emailed');
  mine.push(ws.id);
  const ok = async (res: Promise<{ status: number; body: unknown }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  };
  await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
  await ok(ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'title', text: 'Welcome' }] }));
  return ws;
}

const subjects = (address: string) => sink.to(address).map((e) => e.headers.get('subject'));

describe('notifications by email', () => {
  it('emails each notification at once, in the daily digest or not at all, as the recipient chose', async () => {
    const ws = await world();
    const [ana, bo, cy] = [await member(ws), await member(ws), await member(ws)];
    expect((await bo.api.put('users/me/notifications', { email: 'daily' })).status).toBe(200);
    expect((await cy.api.put('users/me/notifications', { email: 'off' })).status).toBe(200);

    const created = await ws.api.post('comments', {
      comments: [{ textItemId: 'title', body: `@${ana.email} @${bo.email} @${cy.email} is "Welcome" warm enough?` }],
    });
    expect(created.status).toBe(201);
    const [thread] = created.body.ids;
    // Every one of them has it in the app.
    for (const who of [ana, bo, cy]) expect((await who.api.get('notifications')).body.notifications).toHaveLength(1);

    await worker.runOnce();
    await waitFor(() => sink.to(ana.email).length === 1, 'the email to ana');
    const email = sink.to(ana.email)[0] as ReceivedEmail;
    expect(email.headers.get('subject')).toBe(`${ws.email} mentioned you on text item title`);
    expect(email.text).toContain(`${ws.email} mentioned you in a comment on text item title (project web).`);
    expect(email.text).toContain('> @');
    expect(email.text).toContain('is "Welcome" warm enough?');
    expect(email.text).toContain(`https://copy.example.com/projects/web/texts/title?thread=${thread}`);
    expect(email.headers.get('list-unsubscribe')).toMatch(/^<https:\/\/copy\.example\.com\/v2\/email\/unsubscribe/);
    expect(sink.to(bo.email)).toEqual([]);
    expect(sink.to(cy.email)).toEqual([]);
    expect(sink.to(ws.email)).toEqual([]);

    // Bo's reply tells ws (the thread's author) and ana, cy (mentioned in it); bo is not told.
    expect((await bo.api.post('comments', { comments: [{ threadId: thread, body: 'Warm enough.' }] })).status).toBe(
      201,
    );
    await worker.runOnce();
    await waitFor(() => sink.to(ana.email).length === 2 && sink.to(ws.email).length === 1, 'the reply emails');
    expect(subjects(ws.email)).toEqual([`${bo.email} replied on text item title`]);

    // The daily digest: bo's mention, once, at the digest hour.
    const tomorrow = { now: () => Date.now() + 25 * 3_600_000 };
    expect(await sinkWorker({ clock: tomorrow }).runOnce()).toBeGreaterThanOrEqual(1);
    await waitFor(() => sink.to(bo.email).length === 1, 'the digest');
    const digest = sink.to(bo.email)[0] as ReceivedEmail;
    expect(digest.headers.get('subject')).toBe('Your copydesk digest: 1 notification');
    expect(digest.text).toContain(`${ws.email} mentioned you on text item title`);
    expect(digest.text).toContain(`https://copy.example.com/projects/web/texts/title?thread=${thread}`);
    expect(sink.to(cy.email)).toEqual([]);
  });

  it('emails a status change to a follower, and nothing to its actor', async () => {
    const ws = await world();
    const ana = await member(ws);
    expect((await ana.api.patch('textItems', { updates: [{ developerId: 'title', status: 'REVIEW' }] })).status).toBe(
      200,
    );
    await worker.runOnce();
    await waitFor(() => sink.to(ws.email).length === 1, 'the status email');
    const email = sink.to(ws.email)[0] as ReceivedEmail;
    expect(email.headers.get('subject')).toBe('text item title is now REVIEW');
    expect(email.text).toContain(`${ana.email} changed the status of text item title (project web), which you follow`);
    expect(sink.to(ana.email)).toEqual([]);
  });

  it('emails a suggestion with its proposed text and note, and its rejection with the note', async () => {
    const ws = await world();
    const ana = await member(ws);
    const made = await ana.api.post('suggestions', {
      suggestions: [{ textItemId: 'title', text: 'Welcome aboard', note: 'Warmer' }],
    });
    expect(made.status).toBe(201);
    const [id] = made.body.ids;
    await worker.runOnce();
    await waitFor(() => sink.to(ws.email).length === 1, 'the suggestion email');
    const email = sink.to(ws.email)[0] as ReceivedEmail;
    expect(email.headers.get('subject')).toBe(`${ana.email} suggested a change to text item title`);
    expect(email.text).toContain('> Welcome aboard');
    expect(email.text).toContain('> Note: Warmer');
    expect(email.text).toContain(`https://copy.example.com/projects/web/texts/title?suggestion=${id}`);

    expect((await ws.api.post('suggestions/reject', { ids: [id], note: 'Too casual' })).status).toBe(200);
    await worker.runOnce();
    await waitFor(() => sink.to(ana.email).length === 1, 'the rejection email');
    const rejection = sink.to(ana.email)[0] as ReceivedEmail;
    expect(rejection.headers.get('subject')).toBe(`${ws.email} rejected your suggestion on text item title`);
    expect(rejection.text).toContain('> Too casual');
  });
});
