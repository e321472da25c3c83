import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../../src/modules/backup/backup.format.js';
import { apiClient, createWorkspace, setupApp } from '../helpers/app.js';
import { testDatabaseConfig } from '../helpers/database.js';
import { comparable, copydesk, type Line, readLines, workspaceCount, writeLines } from './backup-helpers.js';
import { seedWorkspace } from './workspace-fixture.js';

/** The source workspace's name, unique to this run: restores of its files carry it. */
const SOURCE_NAME = `Template ${randomUUID()}`;

// Backups of workspaces larger than a page of rows, and files of the first format version.
const ctx = await setupApp({ database: testDatabaseConfig() });
const dir = mkdtempSync(join(tmpdir(), 'copydesk-backup-scale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fixture: Line[];

/** Restored into the database they came from, keys are left out (their ids are taken). */
const withoutKeys = (lines: readonly Line[]) => comparable(lines).filter((line) => line.table !== 'apiKeys');

beforeAll(async () => {
  const ws = await createWorkspace(ctx, SOURCE_NAME);
  await ctx.services.accounts.createUser({ workspaceId: ws.id, email: 'ed@example.com', name: 'Ed', role: 'viewer' });
  await seedWorkspace(ws.api, 'ed@example.com');
  const file = join(dir, 'fixture.jsonl.gz');
  expect((await copydesk(ctx, 'workspace', 'export', '--workspace', String(ws.id), '--out', file)).code).toBe(0);
  fixture = readLines(file);
});

const BULK = 5000;

/**
 * The fixture with 5,000 more texts: 2,500 text items, each linked to one of 2,500 components
 * written after it (references forward in the file), and a French value for each text.
 */
function bulkFile(): Line[] {
  const rowsOf = (table: string) => fixture.filter((l) => l.table === table).map((l) => l.row as Record<string, any>);
  const texts = rowsOf('texts');
  const projects = new Set(
    rowsOf('projects')
      .filter((p) => p.kind === 'project')
      .map((p) => p.id),
  );
  const item = texts.find((t) => t.kind === 'text_item' && projects.has(t.project_id)) as Record<string, any>;
  const component = texts.find((t) => t.kind === 'component') as Record<string, any>;
  const value = rowsOf('textVariants')[0] as Record<string, any>;
  const first = texts.length + 1;
  const half = BULK / 2;
  const added: Line[] = [];
  for (let i = 0; i < BULK; i += 1) {
    const isItem = i < half;
    const template = isItem ? item : component;
    const row = {
      ...template,
      id: first + i,
      developer_id: isItem ? `bulk.item.${i}` : `bulk.component.${i - half}`,
      text: `Bulk text ${i}`,
      folder_id: null,
      block_id: null,
      base_text_item_id: null,
      component_id: isItem ? first + half + i : null,
      assignee_id: null,
    };
    added.push({ table: 'texts', row });
  }
  const values: Line[] = [];
  for (let i = 0; i < BULK; i += 1) {
    values.push({
      table: 'textVariants',
      row: { ...value, text_id: first + i, text: `Texte ${i}`, assignee_id: null },
    });
  }
  // The new texts go after the fixture's, their values after the fixture's values.
  const at = (table: string) => fixture.findIndex((l) => l.table === table);
  return [
    ...fixture.slice(0, at('textVariants')),
    ...added,
    ...fixture.slice(at('textVariants'), at('textVariables')),
    ...values,
    ...fixture.slice(at('textVariables')),
  ];
}

describe('backup and restore beyond a page of rows', () => {
  it('restores 5,000 more texts with forward links, and backs them up to the same file', async () => {
    const generated = bulkFile();
    const file = join(dir, 'bulk.jsonl.gz');
    writeLines(file, generated);

    const restored = await copydesk(ctx, 'workspace', 'import', '--file', file, '--json');
    expect(restored.err).toEqual([]);
    const { workspaceId, restored: counts } = restored.json();
    expect(counts.texts).toBe(generated.filter((l) => l.table === 'texts').length);
    expect(counts.textVariants).toBe(generated.filter((l) => l.table === 'textVariants').length);

    const again = join(dir, 'bulk-again.jsonl.gz');
    expect((await copydesk(ctx, 'workspace', 'export', '--workspace', String(workspaceId), '--out', again)).code).toBe(
      0,
    );
    expect(withoutKeys(readLines(again))).toEqual(withoutKeys(generated));

    // A text item written before its component is linked to it.
    const { key } = await ctx.services.accounts.createKey({ workspaceId, email: 'ed@example.com' });
    const items = await apiClient(ctx.app, key).get('textItems');
    expect(items.status).toBe(200);
    const linked = items.body.find((t: { id: string }) => t.id === 'bulk.item.7');
    // A linked item reads its component's text.
    expect(linked).toMatchObject({ componentId: 'bulk.component.7', text: 'Bulk text 2507' });
  });

  it('refuses a bad row after pages were written, and writes nothing', async () => {
    const lines = bulkFile();
    const texts = lines.filter((l) => l.table === 'texts');
    const bad = texts[4321]?.row as Record<string, any>;
    bad.tags = 'not json';
    const file = join(dir, 'bulk-bad.jsonl.gz');
    writeLines(file, lines);
    const before = await workspaceCount(ctx, SOURCE_NAME);
    const refused = await copydesk(ctx, 'workspace', 'import', '--file', file);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain(`file: texts[4321] (id ${bad.id}).tags: must be a JSON array of strings`);
    expect(await workspaceCount(ctx, SOURCE_NAME)).toBe(before);
  });

  it('refuses a link to a text the file does not hold, once every text is read', async () => {
    const lines = bulkFile();
    const item = lines.find((l) => l.table === 'texts' && l.row?.developer_id === 'bulk.item.7')?.row as Record<
      string,
      any
    >;
    item.component_id = 999_999;
    const file = join(dir, 'bulk-link.jsonl.gz');
    writeLines(file, lines);
    const before = await workspaceCount(ctx, SOURCE_NAME);
    const refused = await copydesk(ctx, 'workspace', 'import', '--file', file);
    expect(refused.err.join('\n')).toMatch(
      /file: texts\[\d+\] \(id \d+\)\.component_id: refers to texts 999999, which the file does not hold/,
    );
    expect(await workspaceCount(ctx, SOURCE_NAME)).toBe(before);
  });

  it('restores a file of format version 1 (one JSON document)', async () => {
    const [header, ...rows] = fixture;
    // Every table, in the order of the file (which is a restore's).
    const tables: Record<string, unknown[]> = Object.fromEntries(TABLES.map((table) => [table, []]));
    for (const line of rows) tables[line.table as string]?.push(line.row);
    const v1 = { ...header, version: 1, tables };
    const file = join(dir, 'v1.json.gz');
    writeFileSync(file, gzipSync(JSON.stringify(v1)));

    const restored = await copydesk(ctx, 'workspace', 'import', '--file', file, '--json');
    expect(restored.err).toEqual([]);
    const again = join(dir, 'v1-again.jsonl.gz');
    const { workspaceId } = restored.json();
    expect((await copydesk(ctx, 'workspace', 'export', '--workspace', String(workspaceId), '--out', again)).code).toBe(
      0,
    );
    expect(withoutKeys(readLines(again))).toEqual(withoutKeys(fixture));

    // A version 1 file is checked like any other.
    const bad = structuredClone(v1);
    (bad.tables.variables?.[0] as Record<string, unknown>).type = 'bogus';
    writeFileSync(file, gzipSync(JSON.stringify(bad)));
    const before = await workspaceCount(ctx, SOURCE_NAME);
    const refused = await copydesk(ctx, 'workspace', 'import', '--file', file);
    expect(refused.err.join('\n')).toContain('file: variables[0] (id 1).type: must be one of');
    expect(await workspaceCount(ctx, SOURCE_NAME)).toBe(before);
  });
});
