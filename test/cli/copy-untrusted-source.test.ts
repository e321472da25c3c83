import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../helpers/app.js';
import { cliOn } from '../helpers/cli.js';
import { testDatabaseConfig } from '../helpers/database.js';

// `workspace copy` against sources that misbehave: silent, trickling, oversized, malformed, or
// redirecting elsewhere. Each is refused with one line naming the request, and nothing is written.
const target = await setupApp({ database: testDatabaseConfig() });
/** What a test waits for in the progress the copy prints as it goes. */
let progressSeen: (line: string) => void = () => {};
const copydesk = cliOn(target, (line) => progressSeen(line));

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A server on a free loopback port, closed (its hanging connections too) after the file. */
async function serve(handler: Handler) {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let sources = 0;

const textItem = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  text: `Text of ${id}`,
  notes: '',
  characterLimit: null,
  tags: ['a'],
  integrated: false,
  variableIds: [],
  variantId: null,
  pluralForm: null,
  status: 'NONE',
  assignee: null,
  projectId: 'web',
  baseId: null,
  baseTextItemId: null,
  blockName: null,
  ...extra,
});

/** What a small, valid API v2 source answers; a test replaces the answers it wants broken. */
function answers(name: string): Record<string, unknown> {
  return {
    '/v2/workspace': { name, baseLanguage: 'en', libraryDeveloperMode: false },
    '/v2/statuses': [
      { id: 'NONE', name: 'Draft' },
      { id: 'FINAL', name: 'Final' },
    ],
    '/v2/variants': [{ id: 'fr', name: 'French', description: '', localeCode: 'fr' }],
    '/v2/variables': [{ id: 'count', name: 'count', type: 'number', data: { example: 3 } }],
    '/v2/componentFolders': [],
    '/v2/projects': [{ id: 'web', name: 'Web', baseId: null, developerMode: false }],
    '/v2/components': [],
    '/v2/textItems': [
      textItem('welcome'),
      textItem('welcome', { variantId: 'fr', text: 'Bienvenue' }),
      textItem('bye'),
    ],
  };
}

/** A fake source: JSON answers by path, 404 for the rest, and `override` for the paths a test breaks. */
async function fakeSource(
  override: (path: string, req: IncomingMessage, res: ServerResponse) => boolean = () => false,
) {
  sources += 1;
  const name = `Untrusted source ${sources} ${Date.now()}`;
  const seen: { path: string; authorization?: string }[] = [];
  const origin = await serve((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ path, authorization: req.headers.authorization });
    if (override(path, req, res)) return;
    const body = answers(name)[path];
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return { origin, name, seen };
}

/** Workspaces of this database with that name: a refused copy must not leave one behind. */
async function workspacesNamed(name: string) {
  const rows = await target.database.db.selectFrom('workspaces').select('id').where('name', '=', name).execute();
  return rows.length;
}

describe('workspace copy from a source that is not trusted', () => {
  it('copies a valid source, retrying a 503 and a reset, and following a redirect on the same origin', async () => {
    let refused = 0;
    let resets = 0;
    const source = await fakeSource((path, req, res) => {
      if (path === '/v2/statuses' && refused === 0) {
        refused += 1;
        res.writeHead(503, { 'retry-after': '0' }).end('busy');
        return true;
      }
      if (path === '/v2/variables' && resets === 0) {
        resets += 1;
        req.socket.destroy(); // a connection reset: retried like a 503
        return true;
      }
      if (path === '/v2/variants') {
        res.writeHead(302, { location: '/moved/v2/variants' }).end();
        return true;
      }
      if (path === '/moved/v2/variants') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers('')['/v2/variants']));
        return true;
      }
      return false;
    });
    const run = await copydesk('workspace', 'copy', '--from', source.origin, '--key', 'the-key', '--json');
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out.at(-1) as string).summary;
    expect(summary.counts.textItems).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(summary.counts.variants).toEqual({ created: 1, updated: 0, unchanged: 0 });
    expect(await workspacesNamed(source.name)).toBe(1);
    // Progress names each request with the bytes and records fetched so far.
    const reading = run.out
      .slice(0, -1)
      .map((line) => JSON.parse(line))
      .filter((p) => p.phase === 'reading text items' && p.done === 1);
    expect(reading).toEqual([
      expect.objectContaining({ step: expect.stringMatching(/^GET \/v2\/textItems\?/), records: 8 }),
    ]);
    expect(reading[0].bytes).toBeGreaterThan(0);
    expect(source.seen.filter((r) => r.path === '/v2/statuses')).toHaveLength(2);
    expect(source.seen.filter((r) => r.path === '/v2/variables')).toHaveLength(2);
  });

  it('gives up on a silent source after --request-timeout, and writes nothing', async () => {
    const source = await fakeSource((path) => path === '/v2/projects'); // never answered
    const run = await copydesk(
      'workspace',
      'copy',
      '--from',
      source.origin,
      '--key',
      'k',
      '--request-timeout',
      '0.3',
      '--json',
    );
    expect(run.code).toBe(1);
    expect(run.err).toHaveLength(1);
    expect(run.error).toBe(
      `source: GET /v2/projects: no answer from ${source.origin} within 0.3 s (--request-timeout)`,
    );
    expect(await workspacesNamed(source.name)).toBe(0);
  });

  it('shows that it is waiting while a slow source takes its time', async () => {
    // The source answers once the copy has said it is waiting (or after 20 s, for the test to fail).
    let waited = () => {};
    const saidWaiting = new Promise<void>((resolve) => (waited = resolve));
    progressSeen = (line) => {
      if (line.includes('"waitingSeconds"')) waited();
    };
    const source = await fakeSource((path, _req, res) => {
      if (path !== '/v2/projects') return false;
      const timer = setTimeout(waited, 20_000);
      void saidWaiting.then(() => {
        clearTimeout(timer);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answers('')['/v2/projects']));
      });
      return true;
    });
    const run = await copydesk('workspace', 'copy', '--from', source.origin, '--key', 'k', '--json');
    progressSeen = () => {};
    expect(run.code).toBe(0);
    const waiting = run.out
      .slice(0, -1)
      .map((line) => JSON.parse(line))
      .filter((p) => p.waitingSeconds !== undefined);
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting[0]).toMatchObject({ phase: 'reading the structure', step: 'GET /v2/projects' });
    expect(waiting[0].waitingSeconds).toBeGreaterThanOrEqual(1);
  });

  it('stops a source that trickles its answer forever at --timeout, and writes nothing', async () => {
    const source = await fakeSource((path, _req, res) => {
      if (path !== '/v2/textItems') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      // A byte well within --request-timeout each time: only the overall timer can stop it.
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
      return true;
    });
    const run = await copydesk('workspace', 'copy', '--from', source.origin, '--key', 'k', '--timeout', '1', '--json');
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      /^source: GET \/v2\/textItems\?.*: the copy did not finish reading the source within 1 s \(--timeout\)$/,
    );
    expect(await workspacesNamed(source.name)).toBe(0);
  });

  it('refuses an answer larger than --max-response-mb before holding it whole', async () => {
    let sent = 0;
    const source = await fakeSource((path, _req, res) => {
      if (path !== '/v2/components') return false;
      // Chunked, no Content-Length: the size shows only as the answer arrives.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = `[${'"x",'.repeat(16_383)}`;
      const more = () => {
        while (sent < 64 * 2 ** 20) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('"x"]');
      };
      res.on('close', () => {
        sent = Number.POSITIVE_INFINITY;
      });
      more();
      return true;
    });
    const run = await copydesk(
      'workspace',
      'copy',
      '--from',
      source.origin,
      '--key',
      'k',
      '--max-response-mb',
      '1',
      '--json',
    );
    expect(run.code).toBe(1);
    expect(run.error).toMatch(
      /^source: GET \/v2\/components\?.*: the answer is more than 1 MiB, larger than --max-response-mb 1; refused/,
    );
    expect(await workspacesNamed(source.name)).toBe(0);

    // A declared length is refused before any of the body is read.
    const declared = await fakeSource((path, _req, res) => {
      if (path !== '/v2/projects') return false;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3 * 2 ** 20) });
      res.end(`[${' '.repeat(3 * 2 ** 20 - 2)}]`);
      return true;
    });
    const big = await copydesk('workspace', 'copy', '--from', declared.origin, '--key', 'k', '--max-response-mb', '1');
    expect(big.code).toBe(1);
    expect(big.err.at(-1)).toBe(
      'copydesk: source: GET /v2/projects: the answer is 3.0 MiB, larger than --max-response-mb 1; refused before reading it whole',
    );
  });

  const welcome = 'source: GET /v2/textItems (project web): textItems[0] (id "welcome")';
  const malformed: { name: string; path: string; body: (a: Record<string, unknown>) => unknown; error: string }[] = [
    {
      name: 'tags that are not a list',
      path: '/v2/textItems',
      body: () => [textItem('welcome', { tags: 'not json' })],
      error: `${welcome}.tags: must be array`,
    },
    {
      name: 'a character limit of 0',
      path: '/v2/textItems',
      body: () => [textItem('welcome', { characterLimit: 0 })],
      error: `${welcome}.characterLimit: must be >= 1 or null`,
    },
    {
      name: 'a text that is not a string',
      path: '/v2/textItems',
      body: () => [textItem('ok'), textItem('welcome', { text: 42 })],
      error: 'source: GET /v2/textItems (project web): textItems[1] (id "welcome").text: must be string',
    },
    {
      name: 'a plural form that does not exist',
      path: '/v2/textItems',
      body: () => [textItem('welcome', { pluralForm: 'lots' })],
      error: `${welcome}.pluralForm: must be equal to one of the allowed values or null`,
    },
    {
      name: 'a status the source does not have',
      path: '/v2/textItems',
      body: () => [textItem('welcome', { status: 'bogus' })],
      error: 'source: text item "welcome": status: "bogus" is not a status of the source',
    },
    {
      name: 'a variant the source does not have',
      path: '/v2/textItems',
      body: () => [textItem('welcome'), textItem('welcome', { variantId: 'de' })],
      error: 'source: text item "welcome" (variant de): variantId: "de" is not a variant of the source',
    },
    {
      name: 'an id that is not a developer ID',
      path: '/v2/textItems',
      body: () => [textItem('no spaces allowed')],
      error: 'source: text item "no spaces allowed": id: not a valid developer ID',
    },
    {
      name: 'a variable of an unknown type',
      path: '/v2/variables',
      body: () => [{ id: 'count', name: 'count', type: 'bogus', data: {} }],
      error: 'source: GET /v2/variables: variables[0] (id "count").type: must be equal to one of the allowed values',
    },
    {
      name: 'variable data that does not fit its type',
      path: '/v2/variables',
      body: () => [{ id: 'count', name: 'count', type: 'hyperlink', data: { text: 'x' } }],
      error: expect.stringMatching(/^source: variable "count": data\.url /) as unknown as string,
    },
    {
      name: 'a list that is not a list',
      path: '/v2/projects',
      body: () => ({ projects: 'web' }),
      error: 'source: GET /v2/projects: the answer is not a list of projects',
    },
    {
      name: 'a project without a name',
      path: '/v2/projects',
      body: () => [{ id: 'web' }],
      error: 'source: GET /v2/projects: projects[0] (id "web").name: is missing',
    },
  ];

  it.each(malformed)(
    'refuses $name, naming the record and field, and writes nothing',
    async ({ path, body, error }) => {
      const source = await fakeSource((at, _req, res) => {
        if (at !== path) return false;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body({})));
        return true;
      });
      const run = await copydesk('workspace', 'copy', '--from', source.origin, '--key', 'k', '--json');
      expect(run.code).toBe(1);
      expect(run.err).toHaveLength(1);
      expect(run.error).toEqual(error);
      expect(await workspacesNamed(source.name)).toBe(0);
    },
  );

  it('writes nothing into an existing workspace when the source does not validate', async () => {
    const into = await createWorkspace(target, 'Into');
    const before = {
      history: (await into.api.get('history?limit=100')).body,
      statuses: (await into.api.get('statuses')).body,
      variants: (await into.api.get('variants')).body,
    };
    // Everything else is valid, and would be written first, if the check came after writing.
    const source = await fakeSource((path, _req, res) => {
      if (path !== '/v2/textItems') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([textItem('welcome'), textItem('bye', { tags: [7] })]));
      return true;
    });
    const run = await copydesk(
      'workspace',
      'copy',
      '--from',
      source.origin,
      '--key',
      'k',
      '--into',
      String(into.id),
      '--json',
    );
    expect(run.code).toBe(1);
    expect(run.err).toEqual([
      JSON.stringify({
        error: 'source: GET /v2/textItems (project web): textItems[1] (id "bye").tags[0]: must be string',
      }),
    ]);
    expect({
      history: (await into.api.get('history?limit=100')).body,
      statuses: (await into.api.get('statuses')).body,
      variants: (await into.api.get('variants')).body,
    }).toEqual(before);
  });

  /** A source with projects `web` and `app`, whose text items are `items(project)`. */
  const twoProjects = (items: (project: string) => unknown[]) =>
    fakeSource((path, req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      let body: unknown;
      if (path === '/v2/projects') {
        body = ['app', 'web'].map((id) => ({ id, name: id, baseId: null, developerMode: false }));
      } else if (path === '/v2/textItems') {
        body = items(JSON.parse(url.searchParams.get('filter') ?? '{}').projects[0].id);
      } else return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return true;
    });

  it('refuses a text listed in two projects, before writing', async () => {
    const source = await twoProjects((project) => [textItem('welcome', { projectId: project })]);
    const run = await copydesk('workspace', 'copy', '--from', source.origin, '--key', 'k', '--json');
    expect(run.code).toBe(1);
    expect(run.error).toBe('source: text item "welcome": listed twice');
    expect(await workspacesNamed(source.name)).toBe(0);
  });

  it('refuses a record listed twice in one answer, apart from its first, before writing', async () => {
    const plural = (form: string) => textItem(`welcome_${form}`, { pluralForm: form });
    const source = await twoProjects((project) =>
      project === 'web' ? [plural('one'), plural('other'), textItem('bye'), plural('one')] : [],
    );
    const run = await copydesk('workspace', 'copy', '--from', source.origin, '--key', 'k', '--json');
    expect(run.code).toBe(1);
    expect(run.error).toBe('source: text item "welcome_one": listed twice');
    expect(await workspacesNamed(source.name)).toBe(0);
  });

  it('reports an item that sits in another project here instead of creating it twice', async () => {
    const first = await twoProjects((project) => (project === 'web' ? [textItem('welcome')] : []));
    const run = await copydesk('workspace', 'copy', '--from', first.origin, '--key', 'k', '--json');
    expect(run.code).toBe(0);
    const { workspaceId } = JSON.parse(run.out.at(-1) as string).summary;
    const moved = await twoProjects((project) =>
      project === 'app' ? [textItem('welcome', { projectId: 'app' }), textItem('new', { projectId: 'app' })] : [],
    );
    const again = await copydesk(
      'workspace',
      'copy',
      '--from',
      moved.origin,
      '--key',
      'k',
      '--into',
      String(workspaceId),
      '--json',
    );
    expect(again.err).toEqual([]);
    const summary = JSON.parse(again.out.at(-1) as string).summary;
    expect(summary.notCarried).toContain('text item welcome: it is in project web here, and items cannot move');
    expect(summary.counts.textItems).toEqual({ created: 1, updated: 0, unchanged: 0 });
  });

  it('never follows a redirect to another origin, so the key never leaves the --from origin', async () => {
    const elsewhere: { path: string; authorization?: string }[] = [];
    const other = await serve((req, res) => {
      elsewhere.push({ path: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const source = await fakeSource((path, _req, res) => {
      if (path !== '/v2/statuses') return false;
      res.writeHead(307, { location: `${other}/v2/statuses` }).end();
      return true;
    });
    const run = await copydesk('workspace', 'copy', '--from', source.origin, '--key', 'secret-key', '--json');
    expect(run.code).toBe(1);
    expect(run.error).toBe(
      `source: GET /v2/statuses: the source redirects to ${other}, another origin; the key is sent only to ` +
        `${source.origin} (give the other address as --from if it is the right server)`,
    );
    expect(elsewhere).toEqual([]);
    expect(source.seen.every((r) => r.authorization === 'secret-key')).toBe(true);
    expect(await workspacesNamed(source.name)).toBe(0);
  });

  it('takes only http and https sources, without credentials in the URL', async () => {
    const file = await copydesk('workspace', 'copy', '--from', 'file:///etc/passwd', '--key', 'k');
    expect(file.err).toEqual(["copydesk: --from: 'file:///etc/passwd' is not an http or https URL"]);
    const withUser = await copydesk('workspace', 'copy', '--from', 'http://me:pw@127.0.0.1:1', '--key', 'k');
    expect(withUser.err[0]).toMatch(/holds a user name or password; give the key with --key only/);
    const badTimeout = await copydesk(
      'workspace',
      'copy',
      '--from',
      'http://127.0.0.1:1',
      '--key',
      'k',
      '--timeout',
      '0',
    );
    expect(badTimeout.err).toEqual(["copydesk: --timeout: '0' is not a positive number"]);
    const source = ['--from', 'http://127.0.0.1:1', '--key', 'k'];
    const noSlice = await copydesk('workspace', 'copy', ...source, '--slice-texts', '0');
    expect(noSlice.err).toEqual(["copydesk: --slice-texts: '0' is not a positive number"]);
    const halfSlice = await copydesk('workspace', 'copy', ...source, '--slice-texts', '2.5');
    expect(halfSlice.err).toEqual(["copydesk: --slice-texts: '2.5' is not a whole number"]);
  });
});
