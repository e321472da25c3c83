import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../helpers/app.js';
import { testDatabaseConfig } from '../helpers/database.js';
import { copydesk, type Line, readLines, workspaceCount, writeLines } from './backup-helpers.js';
import { everyGet, seedWorkspace } from './workspace-fixture.js';

/** The source workspace's name, unique to this run: restores of its files carry it. */
const SOURCE_NAME = `Checked ${randomUUID()}`;

// A restore checks every row of a file as the API checks what it is sent, and a file that does not
// pass is refused with the record and field named, leaving the database as it was.
const ctx = await setupApp({ database: testDatabaseConfig() });
const dir = mkdtempSync(join(tmpdir(), 'copydesk-backup-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let ws: Workspace;
let good: Line[];
let goodFile: string;

beforeAll(async () => {
  ws = await createWorkspace(ctx, SOURCE_NAME);
  await ctx.services.accounts.createUser({ workspaceId: ws.id, email: 'ed@example.com', name: 'Ed', role: 'viewer' });
  await seedWorkspace(ws.api, 'ed@example.com');
  goodFile = join(dir, 'good.jsonl.gz');
  const exported = await copydesk(ctx, 'workspace', 'export', '--workspace', String(ws.id), '--out', goodFile);
  expect(exported.code).toBe(0);
  good = readLines(goodFile);
});

/** The good file with the first row of `table` changed by `change`. */
function corrupt(table: string, change: (row: Record<string, any>) => void): Line[] {
  const lines = structuredClone(good);
  const line = lines.find((l) => l.table === table);
  if (!line?.row) throw new Error(`the fixture has no ${table}`);
  change(line.row);
  return lines;
}

/** The good file with a regex rule RE2 cannot run added to the first rules section. */
function withRegexRule(pattern: string): Line[] {
  const lines = structuredClone(good);
  const section = lines.find((l) => l.table === 'styleguideSections' && l.row?.kind === 'rules')?.row;
  if (!section) throw new Error('the fixture has no rules section');
  const at = lines.findIndex((l) => l.table === 'styleguideTerms' || l.table === 'changes');
  const row = {
    id: 900,
    styleguide_id: section.styleguide_id,
    section_id: section.id,
    developer_id: 'no-repeats',
    name: 'No repeats',
    description: '',
    examples: '[]',
    check_kind: 'regex',
    check_config: JSON.stringify({ pattern, flags: '', message: 'Repeated word' }),
    position: 900,
  };
  lines.splice(at, 0, { table: 'styleguideRules', row });
  return lines;
}

const cases: Array<[string, () => Line[], string]> = [
  [
    'tags that are not JSON',
    () => corrupt('texts', (t) => (t.tags = 'not json')),
    'file: texts[0] (id 1).tags: must be a JSON array of strings',
  ],
  [
    'tags that are JSON but not strings',
    () => corrupt('texts', (t) => (t.tags = '[1, 2]')),
    'file: texts[0] (id 1).tags: must be a JSON array of strings',
  ],
  [
    'a variable of an unknown type',
    () => corrupt('variables', (v) => (v.type = 'bogus')),
    'file: variables[0] (id 1).type: must be one of string, number, hyperlink, list, map',
  ],
  [
    "a variable's data of the wrong shape",
    () => corrupt('variables', (v) => (v.data = '{"nope": 1}')),
    'file: variables[0] (id 1).data:',
  ],
  ['a regex RE2 cannot run', () => withRegexRule('(\\w+) \\1'), '.check_config.pattern:'],
  [
    'change fields that are not JSON',
    () => corrupt('changes', (c) => (c.fields = '{{')),
    'file: changes[0] (id 1).fields: must be a JSON object or array of field values (not valid JSON)',
  ],
  [
    'an unknown role',
    () => corrupt('users', (u) => (u.role = 'superadmin')),
    'file: users[0] (id 1).role: must be one of admin, editor, viewer',
  ],
  [
    'a status the workflow does not have',
    () => corrupt('texts', (t) => (t.status = 'SHIPPED')),
    "file: texts[0] (id 1).status: 'SHIPPED' is not a status of the file's workflow",
  ],
  [
    'a reference to a row the file does not hold',
    () => corrupt('textVariants', (v) => (v.variant_id = 99)),
    'file: textVariants[0].variant_id: refers to variants 99, which the file does not hold',
  ],
  [
    'a folder that is its own parent',
    () => corrupt('folders', (f) => (f.parent_id = f.id)),
    'file: folders[0] (id 1).parent_id: leads back to this row through folders 1',
  ],
  [
    'two folders each the parent of the other',
    () => {
      const lines = structuredClone(good);
      const folders = lines.filter((l) => l.table === 'folders').map((l) => l.row as Record<string, any>);
      const [a, b] = folders;
      if (!a || !b) throw new Error('the fixture has fewer than two folders');
      a.parent_id = b.id;
      b.parent_id = a.id;
      return lines;
    },
    'a folders row cannot be its own ancestor',
  ],
  [
    'a developer ID the API refuses',
    () => corrupt('texts', (t) => (t.developer_id = 'has spaces')),
    'file: texts[0] (id 1).developer_id: must be a developer ID',
  ],
  [
    'plurals that are not plural forms',
    () => corrupt('texts', (t) => (t.plurals = '[{"form":"lots","text":"x"}]')),
    'file: texts[0] (id 1).plurals: must be a JSON array of plural forms',
  ],
  [
    'a row out of the restore order',
    () => {
      const lines = structuredClone(good);
      const at = lines.findIndex((l) => l.table === 'changes');
      const [change] = lines.splice(at, 1);
      lines.splice(1, 0, change as Line);
      return lines;
    },
    'file: line 3: a users row after changes rows',
  ],
];

describe('copydesk workspace import refuses a file that does not validate', () => {
  it.each(cases)('%s: names the record and field, and writes nothing', async (_name, make, message) => {
    const file = join(dir, 'corrupt.jsonl.gz');
    writeLines(file, make());
    const before = await workspaceCount(ctx, SOURCE_NAME);

    const refused = await copydesk(ctx, 'workspace', 'import', '--file', file);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain(message);
    // No new workspace: it is created in the restore's own transaction.
    expect(await workspaceCount(ctx, SOURCE_NAME)).toBe(before);

    // Into an empty workspace: it keeps its workflow and built-in style guide.
    const empty = await createWorkspace(ctx, 'Empty');
    const [statuses, guides] = [await empty.api.get('statuses'), await empty.api.get('styleguides')];
    const into = await copydesk(ctx, 'workspace', 'import', '--file', file, '--workspace', String(empty.id));
    expect(into.code).toBe(1);
    expect(into.err.join('\n')).toContain(message);
    expect((await empty.api.get('statuses')).body).toEqual(statuses.body);
    expect((await empty.api.get('styleguides')).body).toEqual(guides.body);
    expect((await empty.api.get('history')).body.changes).toHaveLength(1);
  });

  it('leaves every read of the existing workspace answering 200, and the good file restores', async () => {
    for (const url of [...everyGet(['web', 'mobile']), 'history', 'search?q=cart']) {
      const res = await ws.api.get(url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
    }
    const restored = await copydesk(ctx, 'workspace', 'import', '--file', goodFile, '--json');
    expect(restored.err).toEqual([]);
    expect(restored.json().restored.texts).toBe(good.filter((l) => l.table === 'texts').length);
  });

  it('refuses a file cut short, a line that is not JSON and a header that is not a workspace', async () => {
    const before = await workspaceCount(ctx, SOURCE_NAME);
    const bytes = readFileSync(goodFile);
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const short = await copydesk(ctx, 'workspace', 'import', '--file', cut);
    expect(short.code).toBe(1);
    expect(short.err.join('\n')).toContain('file: not a gzip-compressed JSON document');

    const garbled = join(dir, 'garbled.jsonl.gz');
    writeLines(garbled, [...good.slice(0, 3), 'not a row' as unknown as Line]);
    const notJson = await copydesk(ctx, 'workspace', 'import', '--file', garbled);
    expect(notJson.err.join('\n')).toContain('file: line 4: table must be one of users');

    const nameless = join(dir, 'nameless.jsonl.gz');
    writeLines(nameless, [{ ...good[0], workspace: { ...good[0]?.workspace, name: '' } }, ...good.slice(1)]);
    const noName = await copydesk(ctx, 'workspace', 'import', '--file', nameless);
    expect(noName.err.join('\n')).toContain('file: workspace.name: must be a string that is not empty');
    expect(await workspaceCount(ctx, SOURCE_NAME)).toBe(before);
  });
});
