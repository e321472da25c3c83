import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, ok, setupApp, type Workspace } from '../../helpers/app.js';
import { fakeTranslation, startFakeProvider } from './fake-providers.js';
import { addProvider, mtConfig, translationWorld, variantRecords } from './helpers.js';

const ctx = await setupApp(mtConfig());
const fake = await startFakeProvider({ deeplKey: 'deepl-secret-key-1234' });
beforeEach(() => fake.reset());
afterAll(() => fake.close());

const since = (from: number) => fake.requests.slice(from);

/** A fresh workspace with the texts the tests translate. */
async function world(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await translationWorld(ws, [
    { developerId: 'greeting', text: 'Hello {{name}},\nwelcome back', characterLimit: 60 },
    { developerId: 'short', text: 'Save now', characterLimit: 20 },
    {
      developerId: 'files',
      text: '{{count}} file',
      plurals: [
        { form: 'one', text: '{{count}} file' },
        { form: 'other', text: '{{count}} files' },
      ],
    },
  ]);
  await ok(
    ws.api.post('textItems', {
      projectId: 'web',
      richText: 'html',
      textItems: [{ developerId: 'promo', text: 'Save <strong>20%</strong> today' }],
    }),
  );
  return ws;
}

describe('providers', () => {
  it('keeps the credential sealed and never answers it back', async () => {
    const ws = await world();
    const created = await addProvider(ws, { kind: 'deepl', url: fake.url, apiKey: 'deepl-secret-key-1234' });
    expect(created.apiKey).toEqual({ configured: true, lastFour: '1234', readable: true });
    const listed = await ws.api.get('machineTranslation/providers');
    expect(JSON.stringify(listed.body)).not.toContain('deepl-secret-key');
    const row = await ctx.database.db
      .selectFrom('mt_providers')
      .select('api_key')
      .where('workspace_id', '=', ws.id)
      .executeTakeFirstOrThrow();
    expect(row.api_key).toMatch(/^aes-256-gcm:/);
    expect(row.api_key).not.toContain('deepl-secret-key');
    // A change reads back at once (provider writes are not content: no cached list answers).
    await ok(ws.api.patch('machineTranslation/providers/deepl', { name: 'DeepL Pro', apiKey: 'other-key-0000' }));
    const again = await ws.api.get('machineTranslation/providers');
    expect(again.body.map((p: any) => [p.name, p.apiKey.lastFour])).toEqual([['DeepL Pro', '0000']]);
  });

  it('refuses a private address unless the provider opts in, and a model-less OpenAI provider', async () => {
    const ws = await world();
    const local = await ws.api.post('machineTranslation/providers', {
      name: 'Local',
      kind: 'libretranslate',
      url: fake.url,
    });
    expect(local.status).toBe(400);
    expect(local.body.message).toMatch(/^url: 127\.0\.0\.1 is a loopback or private address.*privateNetwork: true/);
    const metadata = await ws.api.post('machineTranslation/providers', {
      name: 'Metadata',
      kind: 'libretranslate',
      url: 'http://169.254.169.254/',
      privateNetwork: true,
    });
    expect(metadata.status).toBe(400);
    expect(metadata.body.message).toMatch(/^url: .*special-purpose/);
    const modelless = await ws.api.post('machineTranslation/providers', {
      name: 'LLM',
      kind: 'openai',
      url: fake.url,
      privateNetwork: true,
    });
    expect(modelless.status).toBe(400);
    expect(modelless.body.message).toMatch(/^model:/);
  });

  it('is for admins to change', async () => {
    const ws = await world();
    await ok(ws.api.post('users', { email: 'ed@example.com', role: 'editor' }));
    const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email: 'ed@example.com' });
    const editor = apiClient(ctx.app, key);
    const res = await editor.post('machineTranslation/providers', { name: 'X', kind: 'deepl', url: fake.url });
    expect(res.status).toBe(403);
  });
});

describe('DeepL', () => {
  it('sends protected XML with tag handling and gives back placeholders, marks and line breaks intact', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'deepl', url: fake.url, apiKey: 'deepl-secret-key-1234' });
    const from = fake.requests.length;
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'deepl',
      textItemId: 'greeting',
      variantId: 'fr',
      landAs: 'none',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ text: '[FR] HELLO {{name}},\nWELCOME BACK', overLimit: false, landedAs: 'none' });
    const [request] = since(from);
    expect(request?.path).toBe('/v2/translate');
    expect(request?.headers.authorization).toBe('DeepL-Auth-Key deepl-secret-key-1234');
    expect(request?.body).toMatchObject({
      text: ['Hello <x id="1"></x>,<br/>welcome back'],
      source_lang: 'EN',
      target_lang: 'FR',
      tag_handling: 'xml',
    });

    const rich = await ws.api.post('machineTranslation/translate', {
      providerId: 'deepl',
      textItemId: 'promo',
      variantId: 'fr',
      landAs: 'none',
    });
    expect(rich.body).toMatchObject({ text: '[FR] SAVE <strong>20%</strong> TODAY', richText: true });
  });

  it("keeps the base style guide's names through a glossary", async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'deepl', url: fake.url, apiKey: 'deepl-secret-key-1234' });
    await ok(
      ws.api.post('styleguides/terms', {
        terms: [{ styleguideId: 'default', sectionId: 'wordlist', preferred: 'GitHub' }],
      }),
    );
    await ok(
      ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'gh', text: 'Sign in with GitHub' }] }),
    );
    const from = fake.requests.length;
    await ok(
      ws.api.post('machineTranslation/translate', {
        providerId: 'deepl',
        textItemId: 'gh',
        variantId: 'fr',
        landAs: 'none',
      }),
    );
    const [glossary, translate] = since(from);
    expect(glossary?.path).toBe('/v2/glossaries');
    expect(glossary?.body).toMatchObject({
      source_lang: 'EN',
      target_lang: 'FR',
      entries: 'GitHub\tGitHub',
      entries_format: 'tsv',
    });
    expect(translate?.body.glossary_id).toBe('gl-1');
  });

  it('answers a provider error as a 502 that says what the provider said', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'deepl', url: fake.url, apiKey: 'wrong-key' });
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'deepl',
      textItemId: 'short',
      variantId: 'fr',
    });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('the DeepL provider answered 403: Wrong endpoint. Use https://api.deepl.com');
  });
});

describe('LibreTranslate', () => {
  it('translates every plural form Polish needs and lands them as the WIP value, marked in history', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'libretranslate', url: fake.url });
    const from = fake.requests.length;
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'libretranslate',
      textItemId: 'files',
      variantId: 'pl',
      landAs: 'wip',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.plurals.map((p: { form: string }) => p.form)).toEqual(['one', 'few', 'many', 'other']);
    const sent = since(from);
    expect(sent.every((r) => r.path === '/translate' && r.body.format === 'html' && r.body.target === 'pl')).toBe(true);
    // `one` from the source's one, the others from its other.
    expect(sent.map((r) => r.body.q).sort()).toEqual([
      '<x id="1"></x> file',
      '<x id="1"></x> files',
      '<x id="1"></x> files',
      '<x id="1"></x> files',
    ]);
    const records = await variantRecords(ws, 'pl');
    const files = records.filter((r) => r.id.startsWith('files'));
    expect(files.find((r) => r.id === 'files')).toMatchObject({ status: 'WIP', text: '[pl] {{count}} FILE' });
    expect(files.map((r) => r.id).sort()).toEqual(['files', 'files_few', 'files_many', 'files_one', 'files_other']);
    // The exported Polish file has every form, each with its placeholder.
    const exported = await ws.api.get('textItems/export?format=json_i18next&variantId=pl');
    expect(exported.status).toBe(200);
    const file = typeof exported.body === 'string' ? JSON.parse(exported.body) : exported.body;
    expect(file).toMatchObject({
      files_one: '[pl] {{count}} FILE',
      files_few: '[pl] {{count}} FILES',
      files_many: '[pl] {{count}} FILES',
      files_other: '[pl] {{count}} FILES',
    });
    const history = await ws.api.get('history?kind=textItem&id=files');
    const change = history.body.changes.find((c: any) => c.variantId === 'pl');
    expect(change.fields.machineTranslation).toEqual({
      before: null,
      after: { provider: 'libretranslate', kind: 'libretranslate', model: null },
    });
  });

  it("keeps to the provider's concurrency and requests per minute", async () => {
    const ws = await world();
    // One at a time: each of Polish's four forms starts after the one before has answered.
    await addProvider(ws, { kind: 'libretranslate', url: fake.url, concurrency: 1, developerId: 'serial' });
    fake.always({ kind: 'delay', ms: 60 });
    let from = fake.requests.length;
    const body = { providerId: 'serial', textItemId: 'files', variantId: 'pl', landAs: 'none' };
    await ok(ws.api.post('machineTranslation/translate', body));
    fake.always(null);
    const gaps = (requests: { at: number }[]) => requests.slice(1).map((r, i) => r.at - (requests[i]?.at ?? 0));
    expect(gaps(since(from)).every((gap) => gap >= 55)).toBe(true);
    // 600 a minute: one every tenth of a second, however many may run at once.
    await addProvider(ws, {
      kind: 'libretranslate',
      url: fake.url,
      concurrency: 4,
      requestsPerMinute: 600,
      developerId: 'spaced',
    });
    from = fake.requests.length;
    const started = Date.now();
    await ok(ws.api.post('machineTranslation/translate', { ...body, providerId: 'spaced' }));
    const took = Date.now() - started;
    const spaced = since(from);
    expect(spaced).toHaveLength(4);
    // The fourth is sent 300 ms after the first at the earliest, so the call cannot end sooner.
    // When they reach the receiver depends on the machine's load as well (a loaded CI machine
    // delayed one by more than 10 ms): between the first and the last arrival at least 200 ms,
    // where four requests sent at once would arrive within a few.
    expect(took).toBeGreaterThanOrEqual(300);
    expect((spaced[3]?.at ?? 0) - (spaced[0]?.at ?? 0)).toBeGreaterThanOrEqual(200);
  });

  it('never overwrites a value a person wrote unless asked', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'libretranslate', url: fake.url });
    await ok(ws.api.patch('textItems', { variantId: 'fr', updates: [{ developerId: 'short', text: 'Économisez' }] }));
    const body = { providerId: 'libretranslate', textItemId: 'short', variantId: 'fr', landAs: 'wip' };
    const refused = await ws.api.post('machineTranslation/translate', body);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/already has a text in variant fr; send overwrite: true/);
    expect((await variantRecords(ws, 'fr')).find((r) => r.id === 'short').text).toBe('Économisez');
    await ok(ws.api.post('machineTranslation/translate', { ...body, overwrite: true }));
    expect((await variantRecords(ws, 'fr')).find((r) => r.id === 'short')).toMatchObject({
      text: '[fr] SAVE NOW',
      status: 'WIP',
    });
  });

  it('refuses an answer that dropped a placeholder, and writes nothing', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'libretranslate', url: fake.url });
    fake.next({ kind: 'dropPlaceholder' });
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'libretranslate',
      textItemId: 'greeting',
      variantId: 'fr',
      landAs: 'wip',
    });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(
      "the provider's translation was refused: the answer dropped the placeholder {{name}}",
    );
    expect((await variantRecords(ws, 'fr')).find((r) => r.id === 'greeting')).toBeUndefined();
  });
});

describe('OpenAI-compatible', () => {
  it("puts the variant's style guide and terms in the prompt and lands the result as a suggestion", async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'openai', url: fake.url, apiKey: 'sk-local' });
    await ok(
      ws.api.post('styleguides', {
        styleguides: [{ name: 'French', developerId: 'french', variantId: 'fr' }],
      }),
    );
    await ok(
      ws.api.post('styleguides/rules', {
        rules: [
          {
            styleguideId: 'french',
            sectionId: 'rules',
            name: 'Vouvoiement',
            description: 'Address the reader as vous',
          },
        ],
      }),
    );
    await ok(
      ws.api.post('styleguides/terms', {
        terms: [{ styleguideId: 'french', sectionId: 'wordlist', preferred: 'courriel', replaces: ['e-mail'] }],
      }),
    );
    const from = fake.requests.length;
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'openai',
      textItemId: 'short',
      variantId: 'fr',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ landedAs: 'suggestion', text: '[fr-FR] SAVE NOW', model: 'llama3.1:8b' });
    const [request] = since(from);
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-local');
    const system = request?.body.messages[0].content as string;
    expect(system).toContain('- Vouvoiement: Address the reader as vous');
    expect(system).toContain('- "courriel", never "e-mail"');
    expect(request?.body.messages[1]).toEqual({ role: 'user', content: 'Save now' });
    const suggestion = await ws.api.get(`suggestions/${res.body.suggestionId}`);
    expect(suggestion.body).toMatchObject({
      textItemId: 'short',
      variantId: 'fr',
      status: 'open',
      proposed: { text: '[fr-FR] SAVE NOW' },
      note: 'Machine translation by openai test (openai, model llama3.1:8b).',
    });
    // A suggestion leaves the variant as it was.
    expect((await variantRecords(ws, 'fr')).find((r) => r.id === 'short')).toBeUndefined();
  });

  it('flags a result over the character limit and keeps it whole', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'openai', url: fake.url });
    fake.next({ kind: 'long' });
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'openai',
      textItemId: 'short',
      variantId: 'fr',
      landAs: 'wip',
    });
    const whole = fakeTranslation('Save now Save now Save now', 'fr-FR');
    expect(res.body).toMatchObject({ text: whole, overLimit: true, characterLimit: 20, characters: whole.length });
    expect((await variantRecords(ws, 'fr')).find((r) => r.id === 'short').text).toBe(whole);
  });

  it('waits out a 429 for its Retry-After, then translates', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'openai', url: fake.url });
    fake.next({ kind: 'rateLimit', retryAfter: '1' });
    const from = fake.requests.length;
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'openai',
      textItemId: 'short',
      variantId: 'fr',
      landAs: 'none',
    });
    expect(res.status).toBe(200);
    const [first, second] = since(from);
    expect(second).toBeDefined();
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('answers 503 with Retry-After when the provider asks for a longer wait than allowed', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'openai', url: fake.url });
    fake.next({ kind: 'rateLimit', retryAfter: '120' });
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'openai',
      textItemId: 'short',
      variantId: 'fr',
    });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('120');
    expect(res.body.message).toBe('the OpenAI-compatible provider is rate limiting requests (429)');
  });

  it('answers 504 when the provider does not answer in time', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'openai', url: fake.url, timeoutMs: 300 });
    fake.next({ kind: 'hang' });
    const res = await ws.api.post('machineTranslation/translate', {
      providerId: 'openai',
      textItemId: 'short',
      variantId: 'fr',
    });
    expect(res.status).toBe(504);
    expect(res.body.message).toMatch(/^the OpenAI-compatible provider: no answer in time \(no answer within 300 ms\)/);
  });
});

describe('translate missing', () => {
  it('translates what the variant lacks in a project as a job, with its progress', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'libretranslate', url: fake.url });
    await ok(ws.api.patch('textItems', { variantId: 'fr', updates: [{ developerId: 'short', text: 'Économisez' }] }));
    const created = await ws.api.post('translationJobs', {
      providerId: 'libretranslate',
      variantId: 'fr',
      projectId: 'web',
      landAs: 'wip',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ state: 'queued', total: 3, pending: 3, done: 0, projectId: 'web' });
    const worker = ctx.services.machineTranslation.worker(
      { info: () => {}, error: () => {} },
      { workspaceIds: [ws.id] },
    );
    const handled = await worker.runOnce();
    // The job first: where a text was not handled, its problems say why.
    const job = await ws.api.get(`translationJobs/${created.body.id}`);
    expect(job.body).toMatchObject({ state: 'done', total: 3, done: 3, pending: 0, failed: 0, problems: [] });
    expect(handled).toBe(3);
    const fr = await variantRecords(ws, 'fr');
    expect(fr.find((r) => r.id === 'greeting')).toMatchObject({
      text: '[fr] HELLO {{name}},\nWELCOME BACK',
      status: 'WIP',
    });
    expect(fr.find((r) => r.id === 'short').text).toBe('Économisez');
    const progress = await ws.api.get('translationProgress?projectId=web');
    expect(progress.body.find((p: any) => p.variantId === 'fr')).toMatchObject({ missing: 0 });
    expect(await worker.runOnce()).toBe(0);
  });

  it('records a refused text as failed and goes on; a canceled job lands nothing more', async () => {
    const ws = await world();
    await addProvider(ws, { kind: 'libretranslate', url: fake.url });
    // Every answer drops placeholders: the texts with one are refused, the others land.
    fake.always({ kind: 'dropPlaceholder' });
    const job = await ok(
      ws.api.post('translationJobs', { providerId: 'libretranslate', variantId: 'fr', projectId: 'web' }),
    );
    const worker = ctx.services.machineTranslation.worker(
      { info: () => {}, error: () => {} },
      { workspaceIds: [ws.id] },
    );
    await worker.runOnce();
    fake.always(null);
    const done = await ws.api.get(`translationJobs/${job.id}`);
    expect(done.body).toMatchObject({ state: 'done', total: 4, done: 2, failed: 2 });
    const problems = (done.body.problems as any[]).sort((a, b) => a.textItemId.localeCompare(b.textItemId));
    expect(problems).toEqual([
      {
        textItemId: 'files',
        componentId: null,
        state: 'failed',
        error: 'refused: the answer dropped the placeholder {{count}}',
      },
      {
        textItemId: 'greeting',
        componentId: null,
        state: 'failed',
        error: 'refused: the answer dropped the placeholder {{name}}',
      },
    ]);
    // Landed as suggestions (the job's default), each by the user who started it.
    const suggestions = (await ws.api.get('suggestions?status=open')).body.suggestions as any[];
    expect(suggestions.map((s) => [s.textItemId, s.variantId, s.author]).sort()).toEqual([
      ['promo', 'fr', ws.email],
      ['short', 'fr', ws.email],
    ]);
    expect(suggestions.find((s) => s.textItemId === 'promo').proposed.richText).toBe(
      '[fr] SAVE <strong>20%</strong> TODAY',
    );

    const second = await ok(
      ws.api.post('translationJobs', { providerId: 'libretranslate', variantId: 'pl', projectId: 'web' }),
    );
    const canceled = await ws.api.post(`translationJobs/${second.id}/cancel`, {});
    expect(canceled.body).toMatchObject({ state: 'canceled', pending: 4 });
    expect(await worker.runOnce()).toBe(0);
    expect((await ws.api.post(`translationJobs/${second.id}/cancel`, {})).status).toBe(409);
  });
});
