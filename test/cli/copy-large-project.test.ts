import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { listen } from '../clients/real-server.js';
import { apiClient, createWorkspace, setupApp } from '../helpers/app.js';
import { cliOn } from '../helpers/cli.js';
import { tempSqlitePath, testDatabaseConfig } from '../helpers/database.js';

// A project larger than one slice of the copy (300 texts here, `--slice-texts`; 2,000 by
// default): read as a stream, put on disk in slices of whole texts, and written a slice at a time. The source is a real server on SQLite; the
// copy writes into this suite's database (PostgreSQL when DATABASE_URL names one).
const source = await setupApp({ database: { kind: 'sqlite', path: tempSqlitePath('copydesk-large-source-') } });
const server = await listen(source);
const target = await setupApp({ database: testDatabaseConfig() });
const copydesk = cliOn(target);

const TEXTS = 1_000;
const SLICE = ['--slice-texts', '300'];
const pad = (n: number) => String(n).padStart(5, '0');
const from = await createWorkspace(source, 'Large source');
await from.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] });
await from.api.post('projects', { projects: [{ name: 'Big', developerId: 'big' }] });
await from.api.post('projectBlocks', { projectId: 'big', blocks: [{ name: 'Top', developerId: 'top' }] });
for (let start = 0; start < TEXTS; start += 1_000) {
  const textItems = Array.from({ length: 1_000 }, (_, i) => {
    const n = start + i;
    const plural = n % 3 === 0;
    const text = n % 7 === 0 ? `<b>Bold</b> ${n}` : `Text ${n}`;
    const plurals = (one: string) => ({
      plurals: [
        { form: 'one', text: one },
        { form: 'other', text: `many ${n}` },
      ],
    });
    return {
      developerId: `item.${pad(n)}`,
      text,
      tags: [`t${n % 5}`],
      ...(n % 4 === 0 && { blockId: 'top' }),
      ...(plural && plurals(text)),
      variants: [{ variantId: 'fr', text: `Texte ${n}`, ...(plural && plurals(`Texte ${n}`)) }],
    };
  });
  const created = await from.api.post('textItems', { projectId: 'big', richText: 'html', textItems });
  if (created.status >= 300) throw new Error(`seeding: ${JSON.stringify(created.body)}`);
}
const filter = encodeURIComponent(JSON.stringify({ projects: [{ id: 'big' }], variants: [{ id: 'all' }] }));
const list = `textItems?filter=${filter}&sort=project_order&richText=html`;

/** A source that answers like the real one, but sends `GET /v2/textItems` through `edit` in small chunks. */
async function editedSource(edit: (records: Record<string, unknown>[]) => void) {
  const proxy = createServer(async (req, res) => {
    const upstream = await fetch(`${server.origin}${req.url}`, {
      headers: { authorization: String(req.headers.authorization) },
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (!req.url?.startsWith('/v2/textItems') || upstream.status !== 200) {
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(body);
      return;
    }
    const records = JSON.parse(body.toString('utf8')) as Record<string, unknown>[];
    edit(records);
    const edited = Buffer.from(JSON.stringify(records));
    res.writeHead(200, { 'content-type': 'application/json' });
    for (let i = 0; i < edited.length; i += 16_384) res.write(edited.subarray(i, i + 16_384));
    res.end();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('workspace copy of a project larger than a slice', () => {
  it('copies every text of the project in slices, identical to the source, and again only what changed', async () => {
    const first = await copydesk('workspace', 'copy', ...SLICE, '--from', server.origin, '--key', from.key, '--json');
    expect(first.err).toEqual([]);
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.out.at(-1) as string).summary;
    expect(summary.counts.textItems).toEqual({ created: TEXTS, updated: 0, unchanged: 0 });
    const email = 'reader@example.com';
    await target.services.accounts.createUser({
      workspaceId: summary.workspaceId,
      email,
      name: 'Reader',
      role: 'admin',
    });
    const { key } = await target.services.accounts.createKey({ workspaceId: summary.workspaceId, email });
    const copy = apiClient(target.app, key);
    const same = async () => {
      const [a, b] = [await from.api.get(list), await copy.get(list)];
      expect(b.status).toBe(200);
      expect(b.body).toEqual(a.body);
      expect((b.body as unknown[]).length).toBeGreaterThan(TEXTS * 2);
    };
    await same();

    // A change in the last slice and a new item in front: only they are written.
    await from.api.patch('textItems', { updates: [{ developerId: `item.${pad(TEXTS - 2)}`, text: 'Changed' }] });
    await from.api.post('textItems', { projectId: 'big', textItems: [{ developerId: 'item.new', text: 'New' }] });
    await from.api.put('projectOrder', { projectId: 'big', textItemIds: ['item.new'] });
    const again = await copydesk(
      'workspace',
      'copy',
      ...SLICE,
      '--from',
      server.origin,
      '--key',
      from.key,
      '--into',
      String(summary.workspaceId),
      '--json',
    );
    expect(again.code).toBe(0);
    const counts = JSON.parse(again.out.at(-1) as string).summary.counts;
    expect(counts.textItems).toEqual({ created: 1, updated: 1, unchanged: TEXTS - 1 });
    expect(counts.projectOrder).toEqual({ created: 0, updated: 1, unchanged: 0 });
    await same();
  }, 240_000);

  it('refuses a malformed record deep in a large answer, naming it, and writes nothing', async () => {
    const into = await createWorkspace(target, 'Into large');
    const history = async () => (await into.api.get('history?limit=100')).body;
    const before = await history();
    let deep = -1;
    const origin = await editedSource((records) => {
      deep = records.length - 3;
      (records[deep] as Record<string, unknown>).tags = 'not a list';
    });
    const run = await copydesk(
      'workspace',
      'copy',
      ...SLICE,
      '--from',
      origin,
      '--key',
      from.key,
      '--into',
      String(into.id),
    );
    expect(run.code).toBe(1);
    const id = JSON.stringify((await from.api.get(list)).body[deep].id);
    expect(run.err.at(-1)).toBe(
      `copydesk: source: GET /v2/textItems (project big): textItems[${deep}] (id ${id}).tags: must be array`,
    );
    expect(deep).toBeGreaterThan(TEXTS * 2);
    expect(await history()).toEqual(before);
    expect((await into.api.get('projects')).body).toEqual([]);
  }, 120_000);
});
