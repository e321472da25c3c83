import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { listen } from '../clients/real-server.js';
import { apiClient, createWorkspace, setupApp } from '../helpers/app.js';
import { cliOn } from '../helpers/cli.js';
import { tempSqlitePath, testDatabaseConfig } from '../helpers/database.js';
import { everyGet, legacyGets, seedWorkspace, withoutReadTime } from './workspace-fixture.js';

// The source is a real server on SQLite; the copy writes into this suite's database (PostgreSQL
// when DATABASE_URL names one), so on PostgreSQL this is the move from one database to the other.
const source = await setupApp({ database: { kind: 'sqlite', path: tempSqlitePath('copydesk-source-') } });
const server = await listen(source);
const target = await setupApp({ database: testDatabaseConfig() });
const copydesk = cliOn(target);

const lastJson = (lines: string[]) => JSON.parse(lines.at(-1) as string);

describe('copydesk workspace copy', () => {
  it('reproduces every GET of the source byte for byte, and a second run writes nothing', async () => {
    const from = await createWorkspace(source, 'Source');
    await source.services.accounts.createUser({
      workspaceId: from.id,
      email: 'ed@example.com',
      name: 'Ed',
      role: 'viewer',
    });
    await seedWorkspace(from.api, 'ed@example.com');

    const first = await copydesk('workspace', 'copy', '--from', server.origin, '--key', from.key, '--json');
    expect(first.err).toEqual([]);
    expect(first.code).toBe(0);
    const summary = lastJson(first.out).summary;
    // Progress lines come before the summary, one JSON document each.
    expect(JSON.parse(first.out[0] as string)).toEqual({ phase: 'reading the structure', done: 0, total: 9 });
    expect(summary.notCarried).toEqual([]);
    expect(summary.counts.textItems.created).toBe(11);
    expect(summary.counts.components.created).toBe(5);

    const { key } = await target.services.accounts.createKey({
      workspaceId: summary.workspaceId,
      email: 'ed@example.com',
    });
    const copy = apiClient(target.app, key);
    const compare = async () => {
      for (const url of everyGet(['web', 'mobile'])) {
        const [a, b] = [await from.api.get(url), await copy.get(url)];
        expect({ url, status: b.status, body: b.raw.body }).toEqual({ url, status: a.status, body: a.raw.body });
      }
      for (const url of legacyGets) {
        const [a, b] = [
          await from.api.get(url, { authorization: `token ${from.key}` }),
          await copy.get(url, { authorization: `token ${key}` }),
        ];
        expect({ url, status: b.status, body: withoutReadTime(b.raw.body) }).toEqual({
          url,
          status: a.status,
          body: withoutReadTime(a.raw.body),
        });
      }
    };
    await compare();

    const history = async () => (await copy.get('history?limit=1000')).body.changes.length;
    const before = await history();
    const second = await copydesk(
      'workspace',
      'copy',
      '--from',
      `${server.origin}/v2/`,
      '--key',
      from.key,
      '--into',
      String(summary.workspaceId),
      '--json',
    );
    expect(second.code).toBe(0);
    const again = lastJson(second.out).summary;
    for (const [kind, tally] of Object.entries(again.counts as Record<string, { created: number; updated: number }>)) {
      expect({ kind, created: tally.created, updated: tally.updated }).toEqual({ kind, created: 0, updated: 0 });
    }
    expect(await history()).toBe(before);
    await compare();

    // A change at the source is carried by the next run, and only that change.
    await from.api.patch('textItems', { updates: [{ developerId: 'web.ok', text: 'Okay', tags: ['new'] }] });
    await from.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'web.new', text: 'New' }] });
    await from.api.put('projectOrder', { projectId: 'web', textItemIds: ['web.new'] });
    const third = await copydesk(
      'workspace',
      'copy',
      '--from',
      server.origin,
      '--key',
      from.key,
      '--into',
      String(summary.workspaceId),
      '--json',
    );
    expect(third.code).toBe(0);
    const counts = lastJson(third.out).summary.counts;
    expect(counts.textItems).toEqual({ created: 1, updated: 1, unchanged: 10 });
    await compare();
  });

  it('copies from a server without the optional GETs, and says what it could not carry', async () => {
    const from = await createWorkspace(source, 'Plain');
    await source.services.accounts.createUser({ workspaceId: from.id, email: 'ed@example.com', name: 'Ed' });
    await seedWorkspace(from.api, 'ed@example.com');
    // A server that speaks only the GETs every API v2 server has.
    const hidden = ['/v2/workspace', '/v2/users', '/v2/bases', '/v2/projectBlocks', '/v2/styleguides'];
    const proxy = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', server.origin);
      if (hidden.includes(url.pathname)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
        return;
      }
      const answer = await fetch(url, { headers: { authorization: String(req.headers.authorization) } });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const run = await copydesk('workspace', 'copy', '--from', origin, '--key', from.key, '--json');
    expect(run.err).toEqual([]);
    const summary = lastJson(run.out).summary;
    expect(summary.notCarried).toEqual([
      'workspace settings: the source has no GET /workspace',
      'bases: the source has no GET /bases; projects keep no base',
      'block ids: the source has no GET /projectBlocks; blocks are named after blockName',
      'text item web.ok: derives from base item core.ok, whose base is not here',
      'style guides: the source has no GET /styleguides',
    ]);
    const { key } = await target.services.accounts.createKey({
      workspaceId: summary.workspaceId,
      email: 'ed@example.com',
    });
    const copy = apiClient(target.app, key);
    const all = `filter=${encodeURIComponent(JSON.stringify({ variants: [{ id: 'all' }] }))}`;
    for (const url of ['statuses', 'variants', 'variables', 'componentFolders', `components?${all}&richText=html`]) {
      const [a, b] = [await from.api.get(url), await copy.get(url)];
      expect({ url, body: b.raw.body }).toEqual({ url, body: a.raw.body });
    }
    // Blocks come from the items' block names, under ids made from them.
    expect((await copy.get('projectBlocks?projectId=web')).body.map((b: { name: string }) => b.name)).toEqual([
      'Footer',
      'Header',
    ]);
    type Item = { id: string; variantId: string | null; blockName: string | null };
    const placed = async (api: typeof copy) =>
      ((await api.get(`textItems?sort=project_order&${all}`)).body as Item[]).map((r) => [
        r.id,
        r.variantId,
        r.blockName,
      ]);
    expect(await placed(copy)).toEqual(await placed(from.api));
  });

  it('names the problem when the source refuses the key or the workspace does not exist', async () => {
    const refused = await copydesk('workspace', 'copy', '--from', server.origin, '--key', 'nope', '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.err[0] as string).error).toMatch(/refused the key \(401\)/);
    const missing = await copydesk('workspace', 'copy', '--from', server.origin, '--key', 'k', '--into', '99999999');
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toMatch(/Workspace 99999999 not found/);
    const badUrl = await copydesk('workspace', 'copy', '--from', 'ftp://x', '--key', 'k');
    expect(badUrl.err[0]).toMatch(/--from: 'ftp:\/\/x' is not an http or https URL/);
  });
});
