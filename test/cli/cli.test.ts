import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { MIGRATION_NAMES } from '../../src/db/migrate.js';
import { servicesFor } from '../../src/services.js';
import { apiClient } from '../helpers/app.js';
import { onPostgres, tempSqlitePath } from '../helpers/database.js';
import { cachedSerializers } from '../helpers/serializers.js';
import { waitFor } from '../helpers/wait.js';

const DATABASE_URL = onPostgres() ? String(process.env.DATABASE_URL) : tempSqlitePath('copydesk-cli-');
const env = { DATABASE_URL };

interface Run {
  code: number;
  out: string;
  err: string;
  json: () => any;
}

async function copydesk(...argv: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t), env });
  return { code, out: out.join('\n'), err: err.join('\n'), json: () => JSON.parse(out.join('\n')) };
}

// A server on the same database as the CLI, as an administrator would run it. Building it does not
// migrate, so on SQLite the migrate test below still sees an empty database.
const config = loadConfig(env, { rateLimitPerMinute: 0 });
const database = openDatabase(config.database);
const app = await buildApp({
  config,
  database,
  services: servicesFor(config, database),
  logger: false,
  buildSerializer: cachedSerializers,
});
await app.ready();
afterAll(async () => {
  await app.close();
  await database.close();
});

let counter = 0;
function unique(what: string): string {
  counter += 1;
  return `${what}-${process.pid}-${Date.now()}-${counter}`;
}

/** A workspace with one user, made through the CLI. */
async function workspaceWithUser() {
  const workspace = (await copydesk('workspace', 'create', '--name', unique('Team'), '--json')).json();
  const email = `${unique('writer')}@example.com`;
  expect((await copydesk('user', 'create', '--workspace', String(workspace.id), '--email', email)).code).toBe(0);
  return { workspaceId: String(workspace.id), email };
}

describe('copydesk migrate', () => {
  it('applies the migrations once, then reports the schema up to date', async () => {
    const first = await copydesk('migrate', '--json');
    expect(first.code).toBe(0);
    expect(first.err).toBe('');
    expect(first.json()).toEqual({ applied: onPostgres() ? [] : MIGRATION_NAMES });
    expect(MIGRATION_NAMES[0]).toBe('2026_11_21_001_initial');
    const second = await copydesk('migrate', '--json');
    expect(second.json()).toEqual({ applied: [] });
    const human = await copydesk('migrate');
    expect(human.code).toBe(0);
    expect(human.out).toBe('Schema is up to date');
  });
});

describe('copydesk workspace, user and key, with --json', () => {
  it('creates a workspace, a user (email lower-cased) and a key that works against the server', async () => {
    const workspace = await copydesk('workspace', 'create', '--name', unique('Docs team'), '--json');
    expect(workspace.code).toBe(0);
    expect(workspace.json()).toEqual({ id: expect.any(Number) });
    const workspaceId = String(workspace.json().id);

    const email = `${unique('Ada.Lovelace')}@Example.COM`;
    const user = await copydesk(
      'user',
      'create',
      '--workspace',
      workspaceId,
      '--email',
      email,
      '--name',
      'Ada',
      '--json',
    );
    expect(user.code).toBe(0);
    expect(user.json()).toEqual({ email: email.toLowerCase(), role: 'editor' });

    const key = await copydesk('key', 'create', '--workspace', workspaceId, '--email', email, '--name', 'CI', '--json');
    expect(key.code).toBe(0);
    expect(key.json()).toEqual({ id: expect.any(String), key: expect.stringMatching(/^cdk_/) });

    const api = apiClient(app, key.json().key);
    const statuses = await api.get('statuses');
    expect(statuses.status).toBe(200);
    expect(statuses.body).toHaveLength(4);
    expect((await api.get('users')).body).toEqual([{ email: email.toLowerCase(), name: 'Ada', role: 'editor' }]);
  });

  it('user create takes a role; user invite prints a one-time link that sets the password', async () => {
    const workspaceId = String(
      (await copydesk('workspace', 'create', '--name', unique('Invites'), '--json')).json().id,
    );
    const email = `${unique('viv')}@example.com`;
    const bad = await copydesk('user', 'create', '--workspace', workspaceId, '--email', email, '--role', 'owner');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("--role: 'owner' is not one of admin, editor, commenter, viewer");
    const user = await copydesk('user', 'create', '--workspace', workspaceId, '--email', email, '--role', 'viewer');
    expect(user.out).toBe(`Created user ${email} (viewer)`);

    const invite = await copydesk('user', 'invite', '--workspace', workspaceId, '--email', email, '--json');
    expect(invite.code).toBe(0);
    const { passwordLink } = invite.json();
    expect(passwordLink).toMatch(/^http:\/\/127\.0\.0\.1:8080\/set-password#token=[\w-]+$/);
    const token = new URL(passwordLink).hash.slice('#token='.length);
    const set = await app.inject({
      method: 'POST',
      url: '/v2/session/password',
      payload: { token, password: 'viewer password 1' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ email, role: 'viewer' });

    const unknown = await copydesk('user', 'invite', '--workspace', workspaceId, '--email', 'ghost@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('ghost@example.com not found');
  });

  it('lists keys with their prefix only, and revokes a key at once', async () => {
    const { workspaceId, email } = await workspaceWithUser();
    const first = (await copydesk('key', 'create', '--workspace', workspaceId, '--email', email, '--json')).json();
    const second = (await copydesk('key', 'create', '--workspace', workspaceId, '--email', email, '--json')).json();

    const list = await copydesk('key', 'list', '--workspace', workspaceId, '--json');
    expect(list.code).toBe(0);
    expect(list.out).not.toContain(first.key);
    expect(list.out).not.toContain(second.key);
    const keys = list.json();
    expect(keys.map((k: { id: string }) => k.id)).toEqual([first.id, second.id]);
    for (const [index, listed] of keys.entries()) {
      const { key } = index === 0 ? first : second;
      expect(key.startsWith(listed.prefix)).toBe(true);
      expect(listed.prefix.length).toBeLessThan(key.length / 2);
      expect(listed).toMatchObject({ email, revokedAt: null, createdAt: expect.any(String) });
      expect(Object.keys(listed)).not.toContain('key');
      expect(Object.keys(listed)).not.toContain('hash');
    }

    expect((await apiClient(app, first.key).get('statuses')).status).toBe(200);
    const revoke = await copydesk('key', 'revoke', first.id, '--json');
    expect(revoke.code).toBe(0);
    expect(revoke.json()).toEqual({ id: first.id, revoked: true });
    // On PostgreSQL the server hears of it through the database's notification, a moment later.
    const firstStatus = async () => (await apiClient(app, first.key).get('statuses')).status;
    let status = await firstStatus();
    if (onPostgres() && status !== 401) {
      await waitFor(async () => {
        status = await firstStatus();
        return status === 401;
      }, 'the revoked key refused');
    }
    expect(status).toBe(401);
    expect((await apiClient(app, second.key).get('statuses')).status).toBe(200);

    const after = (await copydesk('key', 'list', '--workspace', workspaceId, '--json')).json();
    expect(after[0].revokedAt).toEqual(expect.any(String));
    expect(after[1].revokedAt).toBeNull();
    // Revoking again is harmless.
    expect((await copydesk('key', 'revoke', first.id, '--json')).code).toBe(0);
  });
});

describe('copydesk errors', () => {
  it.each([
    [
      'an unknown workspace',
      ['user', 'create', '--workspace', '999999999', '--email', 'a@example.com'],
      'Workspace 999999999 not found',
    ],
    [
      'a workspace id that is no number',
      ['key', 'list', '--workspace', 'abc'],
      "--workspace: 'abc' is not a workspace id",
    ],
    [
      'a bad email',
      ['user', 'create', '--workspace', 'WS', '--email', 'not-an-email'],
      "email: 'not-an-email' is not an email address",
    ],
    [
      'an unknown user',
      ['key', 'create', '--workspace', 'WS', '--email', 'nobody@example.com'],
      'User nobody@example.com not found in workspace WS',
    ],
    [
      'a duplicate user',
      ['user', 'create', '--workspace', 'WS', '--email', 'EMAIL'],
      'User EMAIL already exists in workspace',
    ],
    ['an unknown key id', ['key', 'revoke', 'key_doesNotExist'], 'Key key_doesNotExist not found'],
    ['an empty workspace name', ['workspace', 'create', '--name', ' '], 'name: must not be empty'],
  ])('%s exits non-zero with the message on err, as JSON with --json', async (_case, template, template_message) => {
    const { workspaceId, email } = await workspaceWithUser();
    const fill = (s: string) => s.replace('WS', workspaceId).replace('EMAIL', email);
    const argv = template.map(fill);
    const message = fill(template_message);

    const json = await copydesk(...argv, '--json');
    expect(json.code).not.toBe(0);
    expect(json.out).toBe('');
    expect(JSON.parse(json.err)).toEqual({ error: message });

    const human = await copydesk(...argv);
    expect(human.code).not.toBe(0);
    expect(human.out).toBe('');
    expect(human.err).toBe(`copydesk: ${message}`);
  });

  it('a missing required option or an unknown command exits non-zero with a message on err', async () => {
    const missing = await copydesk('workspace', 'create');
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain('--name');
    const unknown = await copydesk('frobnicate');
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('frobnicate');
  });

  it('with --json, a usage error is a JSON document too', async () => {
    const missing = await copydesk('user', 'create', '--workspace', '1', '--json');
    expect(missing.code).not.toBe(0);
    expect(JSON.parse(missing.err).error).toContain('--email');
  });

  it('rejects a workspace id that is not a plain number', async () => {
    const hex = await copydesk('key', 'list', '--workspace', '0x10', '--json');
    expect(hex.code).not.toBe(0);
    expect(JSON.parse(hex.err).error).toBe("--workspace: '0x10' is not a workspace id");
  });
});

describe('copydesk human output', () => {
  it('says what it did, in words', async () => {
    const name = unique('Humans');
    const workspace = await copydesk('workspace', 'create', '--name', name);
    expect(workspace.code).toBe(0);
    const [, id] = /^Created workspace (\d+)$/.exec(workspace.out) ?? [];
    expect(id).toBeDefined();

    const email = `${unique('grace')}@example.com`;
    const user = await copydesk('user', 'create', '--workspace', String(id), '--email', email.toUpperCase());
    expect(user.out).toBe(`Created user ${email} (editor)`);

    const empty = await copydesk('key', 'list', '--workspace', String(id));
    expect(empty.out).toBe('No keys');

    const key = await copydesk('key', 'create', '--workspace', String(id), '--email', email, '--name', 'Laptop');
    const [, keyId, secret] = /^Created key (\S+)\. It is shown this once:\n(cdk_\S+)$/.exec(key.out) ?? [];
    expect(keyId).toBeDefined();
    expect((await apiClient(app, String(secret)).get('/token-check')).status).toBe(200);

    const list = await copydesk('key', 'list', '--workspace', String(id));
    expect(list.out).toContain(String(keyId));
    expect(list.out).toContain(email);
    expect(list.out).toContain('Laptop');
    expect(list.out).toContain('active');
    expect(list.out).not.toContain(String(secret));

    expect((await copydesk('key', 'revoke', String(keyId))).out).toBe(`Revoked key ${keyId}`);
    expect((await copydesk('key', 'list', '--workspace', String(id))).out).toMatch(/revoked \d{4}-/);
  });

  it('--help lists every command', async () => {
    const help = await copydesk('--help');
    expect(help.code).toBe(0);
    for (const command of ['serve', 'migrate', 'workspace', 'user', 'key']) expect(help.out).toContain(command);
  });
});
