import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { database, databaseUrl, prepareWorkspace, report, runCopydesk, startServer, stopServer } from './harness.js';

/**
 * A backup file with corrupt values: before, `copydesk workspace import` took them (exit 0) and
 * then up to ten endpoints answered 500. Each corrupt file must now be refused with the record and
 * field named and nothing written, while a server on the same database keeps answering every
 * GET of its API description without a 5xx.
 */
type Line = { table?: string; row?: Record<string, unknown> } & Record<string, unknown>;

const CORRUPTIONS: [name: string, table: string, change: (row: Record<string, unknown>) => void, field: string][] = [
  ['tags that are not JSON', 'texts', (row) => (row.tags = 'not json'), 'tags'],
  ['a variable of an unknown type', 'variables', (row) => (row.type = 'bogus'), 'type'],
  ['change fields that are not JSON', 'changes', (row) => (row.fields = '{{'), 'fields'],
  ['an unknown role', 'users', (row) => (row.role = 'superadmin'), 'role'],
  ['a status outside the workflow', 'texts', (row) => (row.status = 'SHIPPED'), 'status'],
];

describe('corrupt restore', () => {
  it('refuses each corrupt file with the field named; the server answers every GET without a 5xx', async () => {
    const name = `Corrupt restore ${randomUUID()}`;
    const ws = await prepareWorkspace(name);
    const server = await startServer();
    const json = { authorization: ws.key, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.base}/v2/${path}`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    };
    await post('variables', { variables: [{ name: 'count', type: 'number', data: { example: 3 } }] });
    await post('components', { components: [{ text: 'Hello {{count}}', tags: ['greeting'], developerId: 'hello' }] });

    const dir = mkdtempSync(join(tmpdir(), 'copydesk-corrupt-'));
    const good = join(dir, 'good.jsonl.gz');
    const exported = await runCopydesk(
      ['workspace', 'export', '--workspace', String(ws.id), '--out', good],
      { DATABASE_URL: databaseUrl },
      120_000,
    );
    expect(exported.code).toBe(0);
    const lines: Line[] = gunzipSync(readFileSync(good))
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));

    const refusals: Record<string, { code: number | null; message: string }> = {};
    for (const [name, table, change, field] of CORRUPTIONS) {
      const copy: Line[] = structuredClone(lines);
      const target = copy.find((line) => line.table === table)?.row;
      if (!target) throw new Error(`the backup has no ${table}`);
      change(target);
      const file = join(dir, 'corrupt.jsonl.gz');
      writeFileSync(file, gzipSync(`${copy.map((line) => JSON.stringify(line)).join('\n')}\n`));
      const run = await runCopydesk(['workspace', 'import', '--file', file], { DATABASE_URL: databaseUrl }, 120_000);
      refusals[name] = { code: run.code, message: run.stderr.trim().split('\n').at(-1) ?? '' };
      expect(run.code, name).toBe(1);
      expect(run.stderr, name).toMatch(new RegExp(`file: ${table}\\[\\d+\\][^\\n]*\\.${field}:`));
    }

    // Nothing was written: no second workspace of this name (a restore names its new workspace
    // after the backup's), and every GET without path parameters answers below 500.
    const handle = openDatabase(database);
    const named = await handle.db.selectFrom('workspaces').select('id').where('name', '=', name).execute();
    await handle.close();
    const document = (await (await fetch(`${server.base}/v2/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const answers: Record<string, number> = {};
    for (const [path, operations] of Object.entries(document.paths)) {
      // The event stream answers for as long as the client stays (tested in test/modules/events).
      if (!('get' in operations) || path.includes('{') || path === '/v2/events') continue;
      const res = await fetch(`${server.base}${path}`, { headers: { authorization: ws.key } });
      await res.arrayBuffer();
      answers[path] = res.status;
    }
    await stopServer(server);
    const failing = Object.entries(answers).filter(([, status]) => status >= 500);
    report('corrupt restore', { refusals, gets: Object.keys(answers).length, failing, workspacesNamed: named.length });
    expect(named).toHaveLength(1);
    expect(failing).toEqual([]);
    expect(Object.keys(answers).length).toBeGreaterThan(10);
  });
});
