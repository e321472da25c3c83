import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../helpers/app.js';
import { checkAndroid, checkFlat, checkIcu, checkStrings, checkStringsDict, checkStructured } from './consumers.js';
import { dittoCli4 } from './ditto-cli-4.js';
import { expectedFiles, expectedRecords, FOLDER_NAMES, LIBRARY, localeOf } from './expected.js';
import { type ClientRun, describeRun, listen } from './real-server.js';
import { HIDDEN_PROJECT, PROJECT, seedWorkspace, TEXT_ITEMS } from './workspace.js';

// The CLI 4.0.0 against a real server on the suite's database, seeded through /v2: every format
// it supports, variants, the component library, its selective options, and its other commands.
const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seedWorkspace(ws);
const server = await listen(ctx);

const ditto = dittoCli4(server, ws.key);

const everything = (format: string | string[]) => ({
  sources: { components: true, projects: [{ id: PROJECT.developerId, name: PROJECT.name }] },
  variants: true,
  format,
  status: 'FINAL',
  richText: true,
});

function expectSuccess(run: ClientRun) {
  expect(run.code, describeRun(run)).toBe(0);
  expect(run.stdout, describeRun(run)).toContain('Done');
  expect(
    run.exchanges.filter((e) => e.status >= 400),
    describeRun(run),
  ).toEqual([]);
}

describe('@dittowords/cli 4.0.0 pull, every format, with variants and the component library', () => {
  it.each([
    ['flat', checkFlat],
    ['icu', checkIcu],
  ] as const)('%s: JSON files that render the seeded texts and plural forms', async (format, check) => {
    const { run, files } = await ditto(['pull'], everything(format));
    expectSuccess(run);
    const expected = expectedFiles('.json', 'FINAL', (records) => records.length > 0);
    expect([...files.keys()].sort(), describeRun(run)).toEqual([...expected.map((f) => f.name), 'index.js'].sort());
    for (const file of expected) await check(file.name, files.get(file.name)!, file.records, localeOf(file.variant));
  });

  it('structured: one object per record with status, plurals, variables, rich text, name and folder', async () => {
    const { run, files, dir } = await ditto(['pull'], everything('structured'));
    expectSuccess(run);
    const expected = expectedFiles('.json', 'FINAL', (records) => records.length > 0);
    expect([...files.keys()].sort(), describeRun(run)).toEqual([...expected.map((f) => f.name), 'index.js'].sort());
    for (const file of expected) {
      checkStructured(file.name, files.get(file.name)!, file.records, file.variant, file.library ? FOLDER_NAMES : null);
    }
    // The driver the CLI generates requires every file: it must load and merge them.
    const driver = createRequire(join(dir, 'index.js'))('./index.js');
    expect(driver[`project_${PROJECT.developerId}`].base.checkout_title.text).toBe('Checkout');
    expect(driver.ditto_component_library.french.welcome_title.text).toBe('Bienvenue, {{name}} !');
  });

  it('android, ios-strings and ios-stringsdict in one pull (a list of formats)', async () => {
    const { run, files } = await ditto(['pull'], everything(['android', 'ios-strings', 'ios-stringsdict']));
    expectSuccess(run);
    const android = expectedFiles('.xml', 'FINAL', (records) => records.length > 0);
    const strings = expectedFiles('.strings', 'FINAL', (records) => records.length > 0);
    const dicts = expectedFiles('.stringsdict', 'FINAL', (records) => records.some((r) => r.plurals));
    const names = [...android, ...strings, ...dicts].map((f) => f.name);
    expect([...files.keys()].sort(), describeRun(run)).toEqual(names.sort());
    for (const file of android) checkAndroid(file.name, files.get(file.name)!, file.records, localeOf(file.variant));
    for (const file of strings) checkStrings(file.name, files.get(file.name)!, file.records);
    for (const file of dicts) checkStringsDict(file.name, files.get(file.name)!, file.records, localeOf(file.variant));
  });
});

describe('@dittowords/cli 4.0.0 pull, selective configurations', () => {
  it('one folder, the root at its own status, a project without library instances, no variants', async () => {
    const config = {
      sources: {
        components: { folders: [{ id: 'onboarding', name: 'Onboarding' }], root: { status: 'WIP' } },
        projects: [{ id: PROJECT.developerId, name: PROJECT.name, exclude_components: true }],
      },
      variants: false,
      format: 'flat',
      status: 'FINAL',
    };
    const { run, files } = await ditto(['pull'], config);
    expectSuccess(run);
    const onboarding = expectedRecords(
      LIBRARY.filter((c) => c.folder === 'onboarding'),
      null,
      'FINAL',
    );
    // The root's own status follows the root-wide one in the query: the later value wins.
    const root = expectedRecords(
      LIBRARY.filter((c) => c.folder === undefined),
      null,
      'WIP',
    );
    const project = expectedRecords(TEXT_ITEMS, null, 'FINAL');
    const expected = [
      ['components__onboarding__base.json', onboarding],
      ['components__root__base.json', root],
      ['web-app__base.json', project],
    ] as const;
    expect([...files.keys()].sort(), describeRun(run)).toEqual([...expected.map(([name]) => name), 'index.js'].sort());
    for (const [name, records] of expected) await checkFlat(name, files.get(name)!, records, 'en');
  });

  it('a project whose developer mode is off is refused with the message the CLI shows for a 403', async () => {
    const config = { sources: { projects: [{ id: HIDDEN_PROJECT.developerId, name: HIDDEN_PROJECT.name }] } };
    const { run, files } = await ditto(['pull'], config);
    expect(run.stdout, describeRun(run)).toContain("don't have Developer Mode enabled");
    const fetch = run.exchanges.find((e) => e.url.startsWith(`/projects/${HIDDEN_PROJECT.developerId}`));
    expect(fetch?.status, describeRun(run)).toBe(403);
    expect(JSON.parse(fetch!.body).message, describeRun(run)).toMatch(/developer mode/i);
    expect([...files.keys()], describeRun(run)).toEqual([]);
  });
});

describe('@dittowords/cli 4.0.0, other commands', () => {
  it('component-folders prints every folder by id', async () => {
    const { run } = await ditto(['component-folders'], { sources: { components: true } });
    // The CLI exits 0 even when the request fails (its error reporter swallows the rejection).
    expect(run.code, describeRun(run)).toBe(0);
    expect(
      run.exchanges.filter((e) => e.status >= 400),
      describeRun(run),
    ).toEqual([]);
    const folders = await ws.api.get('componentFolders');
    const byId = Object.fromEntries((folders.body as Array<{ id: string; name: string }>).map((f) => [f.id, f.name]));
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!), describeRun(run)).toEqual(byId);
  });

  it('import-components creates components from a CSV with the column mapping it sends', async () => {
    const csv = [
      'Name,Text,Notes,Tags,Status,ID',
      'Imported hello,Hello from CSV,A note,"csv,import",FINAL,imported_hello',
      'Imported bye,"Bye, ""friend""",,csv,WIP,imported_bye',
    ].join('\n');
    // copydesk numbers CSV columns from 1 and reads the first row as the header.
    const mapping = ['--component-name', '1', '--text', '2', '--notes', '3', '--tags', '4', '--status', '5'];
    const { run } = await ditto(
      ['import-components', 'strings.csv', ...mapping, '--component-id', '6'],
      { sources: { components: true } },
      { 'strings.csv': csv },
    );
    expect(run.code, describeRun(run)).toBe(0);
    expect(
      run.exchanges.filter((e) => e.status >= 400),
      describeRun(run),
    ).toEqual([]);
    const upload = run.exchanges.find((e) => e.method === 'POST');
    expect(upload?.url, describeRun(run)).toMatch(/^\/v1\/components\/file\?/);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!), describeRun(run)).toMatchObject({
      componentsInserted: 2,
    });
    const filter = encodeURIComponent(JSON.stringify({ folders: [{ id: 'root' }] }));
    const listed = await ws.api.get(`components?filter=${filter}`);
    const byId = new Map((listed.body as Array<Record<string, unknown>>).map((c) => [c.id, c]));
    expect(byId.get('imported_hello')).toMatchObject({
      name: 'Imported hello',
      text: 'Hello from CSV',
      notes: 'A note',
      tags: ['csv', 'import'],
      status: 'FINAL',
    });
    expect(byId.get('imported_bye')).toMatchObject({ name: 'Imported bye', text: 'Bye, "friend"', status: 'WIP' });
  });
});
