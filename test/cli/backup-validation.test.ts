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

/** The rows of a table in the good file (the copy's, when `lines` is given). */
const rowsOf = (table: string, lines: Line[] = good) =>
  lines.filter((l) => l.table === table).map((l) => l.row as Record<string, any>);

/** The good file with `change` made to a copy of its lines (rows found with `rowsOf(table, lines)`). */
function changed(change: (lines: Line[]) => void): Line[] {
  const lines = structuredClone(good);
  change(lines);
  return lines;
}

/** A text row of the good file by developer ID, with its place among the texts. */
function textOf(lines: Line[], developerId: string): { row: Record<string, any>; index: number } {
  const texts = rowsOf('texts', lines);
  const index = texts.findIndex((t) => t.developer_id === developerId);
  if (index < 0) throw new Error(`the fixture has no text ${developerId}`);
  return { row: texts[index] as Record<string, any>, index };
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
    'file: users[0] (id 1).role: must be one of admin, editor, commenter, viewer',
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
    'a rule in a section of another style guide',
    () =>
      changed((lines) => {
        const rule = rowsOf('styleguideRules', lines)[0];
        const other = rowsOf('styleguideSections', lines).find(
          (s) => s.kind === 'rules' && s.styleguide_id !== rule?.styleguide_id,
        );
        if (!rule || !other) throw new Error('the fixture has no second rules section');
        rule.section_id = other.id;
      }),
    '.section_id: styleguideSections',
  ],
  [
    'a term in a rules section',
    () =>
      changed((lines) => {
        const term = rowsOf('styleguideTerms', lines).at(-1);
        const rules = rowsOf('styleguideSections', lines).find(
          (s) => s.kind === 'rules' && s.styleguide_id === term?.styleguide_id,
        );
        if (!term || !rules) throw new Error('the fixture has no term beside a rules section');
        term.section_id = rules.id;
      }),
    'is a rules section; terms go in a wordlist section',
  ],
  [
    'rich text the API would not store (an attribute, a tag outside the subset)',
    () =>
      changed((lines) => {
        const { row } = textOf(lines, 'legal.terms');
        row.rich_text = 'Read the <strong onclick="steal()">terms</strong> and <em>conditions</em>';
      }),
    ".rich_text: is not rich text as the API stores it (the API's parser makes 'Read the <strong>terms</strong>",
  ],
  [
    'rich text whose plain text is not the text',
    () =>
      changed((lines) => {
        textOf(lines, 'legal.terms').row.text = 'Read the small print';
      }),
    ".rich_text: holds the text 'Read the terms and conditions', not the record's text 'Read the small print'",
  ],
  [
    "a variant value's rich text with a script",
    () =>
      changed((lines) => {
        const value = rowsOf('textVariants', lines).find((v) => typeof v.rich_text === 'string');
        if (!value) throw new Error('the fixture has no rich variant value');
        value.rich_text = `<script>alert(1)</script>${value.rich_text}`;
      }),
    '.rich_text: is not rich text as the API stores it',
  ],
  [
    'plural forms whose first form is not the text',
    () =>
      changed((lines) => {
        const { row } = textOf(lines, 'web.files');
        row.text = 'A file';
      }),
    ".plurals[0].text: must be the text ('A file')",
  ],
  [
    'a developer ID used twice',
    () =>
      changed((lines) => {
        textOf(lines, 'cart.items').row.developer_id = 'cart.title';
      }),
    "file: texts[1] (id 2).developer_id: 'cart.title' is used by an earlier texts row with the same kind",
  ],
  [
    'two values of one text in one variant',
    () =>
      changed((lines) => {
        const values = rowsOf('textVariants', lines);
        const [a, b] = values.filter((v) => v.text_id === values[0]?.text_id);
        if (!a || !b) throw new Error('the fixture has no text with two values');
        b.variant_id = a.variant_id;
      }),
    'is used by an earlier textVariants row with the same text_id',
  ],
  [
    'two variants of one name',
    () =>
      changed((lines) => {
        const [a, b] = rowsOf('variants', lines);
        if (!a || !b) throw new Error('the fixture has fewer than two variants');
        b.name = a.name;
      }),
    'file: variants[1] (id 2).name:',
  ],
  [
    'a locale code not in canonical form',
    () => corrupt('variants', (v) => (v.locale_code = 'fr-fr')),
    "file: variants[0] (id 1).locale_code: must be in canonical form ('fr-FR')",
  ],
  [
    'a locale code that is not a language tag',
    () => corrupt('variants', (v) => (v.locale_code = 'not a locale')),
    "file: variants[0] (id 1).locale_code: 'not a locale' is not a valid BCP 47 language tag",
  ],
  [
    'a text item in a block of another project',
    () =>
      changed((lines) => {
        const block = rowsOf('blocks', lines)[0];
        const item = rowsOf('texts', lines).find(
          (t) => t.kind === 'text_item' && t.project_id !== block?.project_id && t.block_id === null,
        );
        if (!block || !item) throw new Error('the fixture has no item outside the blocks');
        item.block_id = block.id;
      }),
    'is in another project',
  ],
  [
    'a component in a project',
    () => corrupt('texts', (t) => (t.project_id = rowsOf('projects')[0]?.id)),
    'file: texts[0] (id 1).project_id: must be null for a component',
  ],
  [
    'an instance of a text item',
    () =>
      changed((lines) => {
        const texts = rowsOf('texts', lines);
        const instance = texts.find((t) => t.component_id !== null);
        const item = texts.find((t) => t.kind === 'text_item' && t.id !== instance?.id);
        if (!instance || !item) throw new Error('the fixture has no instance');
        instance.component_id = item.id;
      }),
    '.component_id: must refer to a component',
  ],
  [
    'a project connected to a project',
    () =>
      changed((lines) => {
        const projects = rowsOf('projects', lines);
        const connected = projects.find((p) => p.base_id !== null);
        const other = projects.find((p) => p.kind === 'project' && p.id !== connected?.id);
        if (!connected || !other) throw new Error('the fixture has no connected project');
        connected.base_id = other.id;
      }),
    'which is not a base',
  ],
  [
    'two folders of one name under one parent',
    () =>
      changed((lines) => {
        const folders = rowsOf('folders', lines);
        const [a, b] = folders.filter((f) => f.parent_id === null);
        if (!a || !b) throw new Error('the fixture has fewer than two root folders');
        b.name = a.name;
      }),
    'is the name of another folder under the library root',
  ],
  [
    'a name longer than the API takes',
    () => corrupt('folders', (f) => (f.name = 'x'.repeat(201))),
    'file: folders[0] (id 1).name: must be at most 200 characters',
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

  it('names a developer ID used by a text of an earlier page (read back from the database)', async () => {
    const lines = structuredClone(good);
    const texts = rowsOf('texts', lines);
    const first = texts[0] as Record<string, any>;
    const at = lines.findIndex((l) => l.table === 'textVariants');
    // More than a page (2,000 rows) of new components after the file's texts; the last repeats the first's ID.
    const extra = Array.from({ length: 2_001 }, (_, n) => ({
      table: 'texts',
      row: { ...first, id: 10_000 + n, developer_id: n === 2_000 ? first.developer_id : `filler-${n}` },
    }));
    lines.splice(at, 0, ...extra);
    const file = join(dir, 'paged.jsonl.gz');
    writeLines(file, lines);
    const before = await workspaceCount(ctx, SOURCE_NAME);
    const refused = await copydesk(ctx, 'workspace', 'import', '--file', file);
    expect(refused.code).toBe(1);
    const index = texts.length + 2_000;
    expect(refused.err.join('\n')).toContain(
      `file: texts[${index}] (id 12000).developer_id: '${first.developer_id}' is used by an earlier texts row with the same kind`,
    );
    expect(await workspaceCount(ctx, SOURCE_NAME)).toBe(before);
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
