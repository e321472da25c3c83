import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { createWorkspace, setupApp } from '../../helpers/app.js';

const ctx = await setupApp();

/** The administrator's tool on the database the app runs on. */
async function copydesk(...argv: string[]) {
  const db = ctx.config.database;
  const env = { DATABASE_URL: db.kind === 'sqlite' ? `sqlite:${db.path}` : db.url };
  const out: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => out.push(t), env });
  return { code, out: out.join('\n') };
}

describe('history of users', () => {
  it('records a user made with `copydesk user create`, by the CLI, under the email', async () => {
    const ws = await createWorkspace(ctx);
    const userChanges = async () => (await ws.api.get('history?kind=user')).body.changes.length;
    const before = await userChanges();
    const run = await copydesk('user', 'create', '--workspace', String(ws.id), '--email', 'Ana@Example.com');
    expect(run.code, run.out).toBe(0);

    const res = await ws.api.get('history?kind=user&id=ana@example.com');
    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: 'cli',
        keyId: null,
        revision: expect.stringMatching(/^\d+$/),
        kind: 'user',
        developerId: 'ana@example.com',
        variantId: null,
        action: 'created',
        fields: {
          email: { before: null, after: 'ana@example.com' },
          name: { before: null, after: 'ana' },
          role: { before: null, after: 'editor' },
        },
      },
    ]);
    // The CLI wrote through its own connection: on PostgreSQL the app learns of the new revision
    // by NOTIFY, so a cached answer of the same URL may be served until that arrives.
    await expect.poll(userChanges, { timeout: 5_000 }).toBe(before + 1);
    expect((await ws.api.get('history?actor=CLI&kind=user')).body.changes).toHaveLength(before + 1);
  });

  it('records nothing for a user who already exists, and nothing in another workspace', async () => {
    const ws = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    const before = (await ws.api.get('history')).body;
    const run = await copydesk('user', 'create', '--workspace', String(ws.id), '--email', ws.email);
    expect(run.code).toBe(1);
    expect(run.out).toContain('already exists');
    expect((await ws.api.get('history')).body).toEqual(before);
    expect((await other.api.get(`history?kind=user&id=${ws.email}`)).body.changes).toEqual([]);
  });

  it('records the user a new workspace starts with, and the ETag changes with it', async () => {
    const ws = await createWorkspace(ctx);
    const [created] = (await ws.api.get(`history?kind=user&id=${ws.email}`)).body.changes;
    expect(created).toMatchObject({
      actor: 'cli',
      action: 'created',
      fields: { name: { before: null, after: 'Writer' } },
    });
    const etag = (await ws.api.get('users')).headers.etag;
    await ctx.services.accounts.createUser({ workspaceId: ws.id, email: 'second@example.com' });
    const after = await ws.api.get('users');
    expect(after.headers.etag).not.toBe(etag);
    expect(after.body.map((u: { email: string }) => u.email)).toContain('second@example.com');
  });
});
