/**
 * Seeds one workspace of N texts (default 1,000,000) for `bench:scale`, on SQLite or PostgreSQL,
 * in minutes: the API writes a few templates of each kind (a component with three variant values,
 * one with plural forms and a variable, a text item in a block ...), then bulk SQL clones them
 * into the real schema, numbered, with their variant values, variables and history rows, and the
 * server's own indexer builds the search index. So every row is one the API wrote, renumbered.
 * See docs/scale.md ("The seed").
 *
 * Alone: `npx tsx bench/scale-seed.ts --texts 20000` (DATABASE_URL for PostgreSQL or a file;
 * default a fresh SQLite file) prints the database, the workspace and the key as JSON.
 */
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { dialectOf } from '../src/db/dialect.js';
import type { Database } from '../src/db/schema.js';
import { createSearchIndexer } from '../src/modules/texts/search.repository.js';
import { cli, freePort, startServer, stop, tempDatabaseUrl, waitForHttp } from './lib.js';

/** Replaced by the text's number in every text of a template (text, plural forms, notes, variant values). */
const MARK = 'SEEDNUM';
export const VARIANTS = ['fr', 'de', 'es'] as const;
export const FOLDERS = 100;
export const PROJECTS = 100;
export const BLOCKS_PER_PROJECT = 5;
/** One component in this many texts; the rest are text items. */
const COMPONENT_SHARE = 10;
/** One text in this many gets a `created` change in the history. */
const HISTORY_SHARE = 5;
/** Texts per SQL statement (and transaction). */
const CHUNK = 50_000;

const plurals = (one: string, other: string) => [
  { form: 'one', text: one },
  { form: 'other', text: other },
];

/** What the API gets for each template; `SEEDNUM` becomes the clone's number. */
const CONTENT = [
  {
    text: `Save ${MARK} changes`,
    notes: `On the save button of form ${MARK}`,
    tags: ['button', 'checkout'],
    status: 'FINAL',
    variants: VARIANTS.map((v) => ({ variantId: v, text: `${v} save ${MARK}`, status: 'REVIEW' })),
  },
  {
    text: `You have one message in box ${MARK}`,
    plurals: plurals(`You have one message in box ${MARK}`, `You have {{count}} messages in box ${MARK}`),
    variables: ['count'],
    tags: ['inbox'],
    status: 'WIP',
    variants: [
      {
        variantId: 'fr',
        text: `Vous avez un message dans la boîte ${MARK}`,
        plurals: plurals(
          `Vous avez un message dans la boîte ${MARK}`,
          `Vous avez {{count}} messages dans la boîte ${MARK}`,
        ),
      },
    ],
  },
  {
    text: `Hello {{name}}, welcome to order ${MARK}`,
    variables: ['name'],
    characterLimit: 80,
    integrated: true,
    tags: ['greeting'],
    variants: [{ variantId: 'de', text: `Hallo {{name}}, willkommen zu Bestellung ${MARK}` }],
  },
  { text: `Error ${MARK}: the card was declined`, status: 'REVIEW' },
] as const;

export interface Template {
  developerId: string;
  content: (typeof CONTENT)[number];
}

export interface SeedOptions {
  texts: number;
  /** A PostgreSQL URL or a SQLite file; default a fresh SQLite file. */
  databaseUrl?: string;
  log?: (line: string) => void;
}

export interface Seeded {
  DATABASE_URL: string;
  database: 'sqlite' | 'postgres';
  workspaceId: number;
  key: string;
  /** Numbered clones of each kind (comp-0000000 ..., item-0000000 ...). */
  components: number;
  textItems: number;
  /** The templates the clones copy, in the workspace too: a component and a text item of each. */
  templates: number;
  variantValues: number;
  historyRows: number;
  /** Seconds per step. */
  seconds: Record<string, number>;
}

export const componentId = (n: number) => `comp-${String(n).padStart(7, '0')}`;
export const textItemId = (n: number) => `item-${String(n).padStart(7, '0')}`;
export const folderId = (f: number) => `folder-${String(f).padStart(3, '0')}`;
export const projectId = (p: number) => `project-${String(p).padStart(3, '0')}`;
export const blockId = (b: number) => `block-${b}`;

/** Where clone `n` of each kind goes: its template, and its folder or project and block. */
export const placeOf = {
  component: (n: number) => ({ template: n % CONTENT.length, folder: n % (FOLDERS + 1) }),
  textItem: (n: number) => ({
    template: n % CONTENT.length,
    project: n % PROJECTS,
    block: Math.floor(n / PROJECTS) % (BLOCKS_PER_PROJECT + 1),
  }),
};
/** `folder` or `block` past the last one: at the library root, outside every block. */

/** The texts a clone of template `t` with number `n` has, as the API would answer them. */
export function expectedContent(t: number, n: number) {
  const content = CONTENT[t]!;
  const put = (text: string) => text.replaceAll(MARK, String(n));
  return {
    text: put(content.text),
    notes: 'notes' in content ? put(content.notes) : '',
    tags: 'tags' in content ? [...content.tags] : [],
    status: 'status' in content ? content.status : 'NONE',
    variables: 'variables' in content ? [...content.variables] : [],
    variants: new Map(('variants' in content ? content.variants : []).map((v) => [v.variantId, put(v.text)])),
  };
}

export async function seed(options: SeedOptions): Promise<Seeded> {
  const log = options.log ?? (() => {});
  const seconds: Record<string, number> = {};
  let clock = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    seconds[name] = Math.round((now - clock) / 100) / 10;
    clock = now;
    log(`  seed: ${name} ${seconds[name]} s`);
  };
  const DATABASE_URL = options.databaseUrl ?? tempDatabaseUrl();
  const components = Math.max(CONTENT.length, Math.round(options.texts / COMPONENT_SHARE));
  const textItems = Math.max(CONTENT.length, options.texts - components);

  // 1. A workspace, an admin and a key through the CLI; the templates through the API.
  const json = async (args: string[]) => JSON.parse(await cli([...args, '--json'], { DATABASE_URL }));
  const workspace = await json(['workspace', 'create', '--name', `bench scale ${options.texts}`]);
  const email = 'scale@example.com';
  await json(['user', 'create', '--workspace', String(workspace.id), '--email', email, '--role', 'admin']);
  const { key } = await json(['key', 'create', '--workspace', String(workspace.id), '--email', email]);
  await writeTemplates(DATABASE_URL, key);
  lap('templates through the API');

  // 2. The clones, by bulk SQL into the same tables.
  const database = openDatabase(loadConfig({ DATABASE_URL }).database);
  const db = database.db;
  try {
    const cloned = await cloneTemplates(db, workspace.id, { components, textItems }, log);
    lap('texts, variant values, variables and history by SQL');
    // 3. The search index, as the server's indexer builds it from the queue the texts' trigger filled.
    // PostgreSQL first learns how full the queue now is: with the statistics of an empty queue it
    // plans the indexer's `delete ... where text_id in (select ... limit n)` as a nested loop over
    // the whole queue for every row, and 150,000 queued texts took hours.
    if (database.dialect === 'postgres') await sql`analyze text_search_queue`.execute(db);
    await createSearchIndexer(db).upToDate();
    // The indexer emptied the queue, leaving as many dead rows: vacuumed now, or the queue trigger
    // of the next inserts (a restore's 2,000 texts a statement) scans them all for every new row,
    // because the statistics then say the queue is empty (30 s a page at 150,000 texts).
    if (database.dialect === 'postgres') await sql`vacuum analyze text_search_queue`.execute(db);
    lap('search index');
    if (database.dialect === 'postgres') await sql`analyze`.execute(db);
    return {
      DATABASE_URL,
      database: database.dialect === 'postgres' ? 'postgres' : 'sqlite',
      workspaceId: workspace.id,
      key,
      components,
      textItems,
      templates: CONTENT.length * 2,
      variantValues: cloned.variantValues,
      historyRows: cloned.historyRows,
      seconds,
    };
  } finally {
    await database.close();
  }
}

/** Variants, variables, folders, projects with blocks, and the templates, through a server. */
async function writeTemplates(DATABASE_URL: string, key: string): Promise<void> {
  const port = await freePort();
  const server = startServer({ DATABASE_URL, PORT: String(port) });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000);
    const call = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}/v2/${path}`, {
        method,
        headers: { authorization: key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`seed: ${method} /v2/${path}: ${res.status} ${await res.text()}`);
    };
    await call('POST', 'variants', { variants: VARIANTS.map((id) => ({ name: id.toUpperCase(), developerId: id })) });
    await call('POST', 'variables', {
      variables: [
        { name: 'count', type: 'number', data: { example: 3 } },
        { name: 'name', type: 'string', data: { example: 'Ada', fallback: 'there' } },
      ],
    });
    // A tenth of the folders at the root, the others nested one level under them.
    const roots = FOLDERS / 10;
    await call('POST', 'componentFolders', {
      folders: Array.from({ length: roots }, (_, f) => ({ name: `Folder ${f}`, developerId: folderId(f) })),
    });
    await call('POST', 'componentFolders', {
      folders: Array.from({ length: FOLDERS - roots }, (_, i) => ({
        name: `Folder ${roots + i}`,
        developerId: folderId(roots + i),
        parentId: folderId(i % roots),
      })),
    });
    await call('POST', 'projects', {
      projects: Array.from({ length: PROJECTS }, (_, p) => ({ name: `Project ${p}`, developerId: projectId(p) })),
    });
    for (let p = 0; p < PROJECTS; p += 1) {
      await call('POST', 'projectBlocks', {
        projectId: projectId(p),
        blocks: Array.from({ length: BLOCKS_PER_PROJECT }, (_, b) => ({ name: `Block ${b}`, developerId: blockId(b) })),
      });
    }
    await call('POST', 'components', {
      components: CONTENT.map((content, t) => ({
        developerId: `template-c${t}`,
        name: `Component ${MARK} (${t})`,
        folderId: folderId(0),
        ...content,
      })),
    });
    await call('POST', 'textItems', {
      projectId: projectId(0),
      textItems: CONTENT.map((content, t) => ({ developerId: `template-i${t}`, blockId: blockId(0), ...content })),
    });
  } finally {
    await stop(server);
  }
}

type Db = Kysely<Database>;

/** The columns of a table, in order, as the database has them after every migration. */
async function columnsOf(db: Db, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns
    where table_name = ${table} and table_schema = current_schema() order by ordinal_position`
    .execute(db)
    .catch(() => ({ rows: [] as { name: string }[] }));
  if (rows.length > 0) return rows.map((r) => r.name);
  const pragma = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return pragma.rows.map((r) => r.name);
}

/** `values (0, 12), (1, 13) ...` as a table `name(k, id)`. */
const keyed = (name: string, ids: readonly (number | null)[]) =>
  sql.raw(
    `${name}(k, id) as (values ${ids.map((id, k) => `(${k}, ${id === null ? 'null' : Number(id)})`).join(', ')})`,
  );

interface Counts {
  components: number;
  textItems: number;
}

async function cloneTemplates(db: Db, workspaceId: number, counts: Counts, log: (line: string) => void) {
  const postgres = dialectOf(db) === 'postgres';
  const idsOf = async (kind: 'component' | 'text_item') =>
    (
      await db
        .selectFrom('texts')
        .select(['id'])
        .where('workspace_id', '=', workspaceId)
        .where('kind', '=', kind)
        .where('developer_id', 'like', 'template-%')
        .orderBy('developer_id')
        .execute()
    ).map((r) => Number(r.id));
  const templates = { component: await idsOf('component'), text_item: await idsOf('text_item') };
  const folders = (
    await db
      .selectFrom('component_folders')
      .select(['id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('developer_id')
      .execute()
  ).map((r) => Number(r.id));
  const projects = (
    await db
      .selectFrom('projects')
      .select(['id'])
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'project')
      .orderBy('developer_id')
      .execute()
  ).map((r) => Number(r.id));
  const blockRows = await db
    .selectFrom('blocks')
    .innerJoin('projects', 'projects.id', 'blocks.project_id')
    .select(['blocks.id as id'])
    .where('blocks.workspace_id', '=', workspaceId)
    .orderBy('projects.developer_id')
    .orderBy('blocks.developer_id')
    .execute();
  const blocks = blockRows.map((r) => Number(r.id));
  if (folders.length !== FOLDERS || projects.length !== PROJECTS || blocks.length !== PROJECTS * BLOCKS_PER_PROJECT) {
    throw new Error('seed: the folders, projects or blocks the API wrote are not what was asked');
  }

  // The clones' rows belong to one more write of the workspace, as an import of them all would.
  const { revision } = await db
    .updateTable('workspaces')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', workspaceId)
    .returning('revision')
    .executeTakeFirstOrThrow();
  // The clones' ids: after every text's. On PostgreSQL they are taken from the sequence as one
  // block, so other writers of the same database (another test file) keep getting ids past it.
  const total = counts.components + counts.textItems;
  const componentBase = postgres
    ? Number(
        (
          await sql<{ last: string }>`select setval(pg_get_serial_sequence('texts', 'id'),
            greatest(nextval(pg_get_serial_sequence('texts', 'id')), (select coalesce(max(id), 0) + 1 from texts))
              + ${total}) as last`.execute(db)
        ).rows[0]?.last,
      ) - total
    : Number((await sql<{ id: number | null }>`select max(id) as id from texts`.execute(db)).rows[0]?.id ?? 0) + 1;
  const itemBase = componentBase + counts.components;

  const textColumns = await columnsOf(db, 'texts');
  const variantColumns = await columnsOf(db, 'text_variants');
  const changeColumns = (await columnsOf(db, 'changes')).filter((c) => c !== 'id');
  const num = (n: string) => (postgres ? `(${n})::text` : `cast(${n} as text)`);
  const pad = (n: string, width = 7) =>
    postgres ? `lpad((${n})::text, ${width}, '0')` : `printf('%0${width}d', ${n})`;
  const put = (column: string) => `replace(t.${column}, '${MARK}', ${num('g.n')})`;
  const series = (from: number, to: number) =>
    postgres
      ? `generate_series(${from}, ${to - 1}) as g(n)`
      : `(with recursive s(n) as (select ${from} union all select n + 1 from s where n < ${to - 1}) select n from s) g`;

  let variantValues = 0;
  let historyRows = 0;
  for (const kind of ['component', 'text_item'] as const) {
    const total = kind === 'component' ? counts.components : counts.textItems;
    const base = kind === 'component' ? componentBase : itemBase;
    const ids = templates[kind];
    const prefix = kind === 'component' ? 'comp-' : 'item-';
    const own: Record<string, string> = {
      id: `${base} + g.n`,
      developer_id: `'${prefix}' || ${pad('g.n')}`,
      text: put('text'),
      rich_text: put('rich_text'),
      plurals: put('plurals'),
      notes: put('notes'),
      revision: String(revision),
      position: kind === 'text_item' ? `g.n / ${PROJECTS} + 100` : 't.position',
    };
    if (kind === 'component') {
      own.name = put('name');
      own.folder_id = 'f.id';
    } else {
      own.project_id = 'p.id';
      own.block_id = 'b.id';
    }
    const select = textColumns.map((c) => own[c] ?? `t.${c}`).join(', ');
    const places =
      kind === 'component'
        ? `, ${keyed('f', [...folders, null]).compile(db).sql}`
        : `, ${keyed('p', projects).compile(db).sql}, ${keyed('b', blocks).compile(db).sql}`;
    const joins =
      kind === 'component'
        ? `join f on f.k = g.n % ${FOLDERS + 1}`
        : `join p on p.k = g.n % ${PROJECTS}
           left join b on b.k = (g.n % ${PROJECTS}) * ${BLOCKS_PER_PROJECT} + (g.n / ${PROJECTS}) % ${BLOCKS_PER_PROJECT + 1}
             and (g.n / ${PROJECTS}) % ${BLOCKS_PER_PROJECT + 1} < ${BLOCKS_PER_PROJECT}`;
    const templatesCte = keyed('tpl', ids).compile(db).sql;
    for (let from = 0; from < total; from += CHUNK) {
      const to = Math.min(total, from + CHUNK);
      const cte = `with ${templatesCte}${places}`;
      await db.transaction().execute(async (trx) => {
        await sql
          .raw(`${cte} insert into texts (${textColumns.join(', ')})
            select ${select} from ${series(from, to)}
              join tpl on tpl.k = g.n % ${ids.length}
              join texts t on t.id = tpl.id
              ${joins}`)
          .execute(trx);
        const valueSelect = variantColumns
          .map((c) =>
            c === 'text_id'
              ? `${base} + g.n`
              : ['text', 'rich_text', 'plurals', 'notes'].includes(c)
                ? put(c)
                : `t.${c}`,
          )
          .join(', ');
        const values = await sql
          .raw(`with ${templatesCte} insert into text_variants (${variantColumns.join(', ')})
            select ${valueSelect} from ${series(from, to)}
              join tpl on tpl.k = g.n % ${ids.length}
              join text_variants t on t.text_id = tpl.id`)
          .execute(trx);
        variantValues += Number(values.numAffectedRows ?? 0);
        await sql
          .raw(`with ${templatesCte} insert into text_variables (text_id, variable_id)
            select ${base} + g.n, t.variable_id from ${series(from, to)}
              join tpl on tpl.k = g.n % ${ids.length}
              join text_variables t on t.text_id = tpl.id`)
          .execute(trx);
        // A `created` change for one text in HISTORY_SHARE, as the template's own create recorded
        // it, its container renamed: the templates are in folder-000, or project-000's block-0.
        // Only clones in a folder or a block get one, so the container is always named the same way.
        const folder = `g.n % ${FOLDERS + 1}`;
        const project = `g.n % ${PROJECTS}`;
        const block = `(g.n / ${PROJECTS}) % ${BLOCKS_PER_PROJECT + 1}`;
        const fields =
          kind === 'component'
            ? `replace(${put('fields')}, '"${folderId(0)}"', '"folder-' || ${pad(folder, 3)} || '"')`
            : `replace(replace(${put('fields')}, '"${projectId(0)}"', '"project-' || ${pad(project, 3)} || '"'),
                 '"${blockId(0)}"', '"block-' || ${num(block)} || '"')`;
        const placed = kind === 'component' ? `${folder} < ${FOLDERS}` : `${block} < ${BLOCKS_PER_PROJECT}`;
        const changeKind = kind === 'component' ? 'component' : 'textItem';
        const changeSelect = changeColumns
          .map((c) =>
            c === 'record_ref'
              ? `t.kind || ':' || ${num(`${base} + g.n`)}`
              : c === 'developer_id'
                ? `'${prefix}' || ${pad('g.n')}`
                : c === 'fields'
                  ? fields
                  : c === 'revision'
                    ? String(revision)
                    : `t.${c}`,
          )
          .join(', ');
        const history = await sql
          .raw(`with ${templatesCte} insert into changes (${changeColumns.join(', ')})
            select ${changeSelect} from ${series(from, to)}
              join tpl on tpl.k = g.n % ${ids.length}
              join changes t on t.record_ref = '${changeKind}:' || ${num('tpl.id')} and t.action = 'created'
            where g.n % ${HISTORY_SHARE} = 0 and ${placed}`)
          .execute(trx);
        historyRows += Number(history.numAffectedRows ?? 0);
      });
      log(`  seed: ${kind} ${to.toLocaleString('en')} / ${total.toLocaleString('en')}`);
    }
  }
  return { variantValues, historyRows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--texts');
  const texts = Number(at >= 0 ? process.argv[at + 1] : (process.env.BENCH_TEXTS ?? 1_000_000));
  const seeded = await seed({ texts, databaseUrl: process.env.DATABASE_URL || undefined, log: console.error });
  console.log(JSON.stringify(seeded, null, 2));
}
