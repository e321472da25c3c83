import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

const greeting = { name: 'user_name', type: 'string', data: { example: 'Ada', fallback: 'friend' } };
const count = { name: 'count', type: 'number', data: { example: 3 } };
const help = { name: 'help_link', type: 'hyperlink', data: { text: 'Help', url: 'https://example.com/help' } };
const fruits = { name: 'fruits', type: 'list', data: ['apple', 'pear'] };
const labels = { name: 'labels', type: 'map', data: { en: 'Hello', fr: 'Bonjour' } };
const all = [greeting, count, help, fruits, labels];

const asRecord = (v: { name: string; type: string; data: unknown }) => ({ id: v.name, ...v });

async function names(ws: Workspace): Promise<string[]> {
  return (await ws.api.get('variables')).body.map((v: { id: string }) => v.id);
}

/** Marks `variableName` as used by `uses` new texts of the workspace (the components API comes later). */
async function useInTexts(ws: Workspace, variableName: string, uses: number): Promise<void> {
  const { db } = ctx.database;
  const variable = await db
    .selectFrom('variables')
    .select('id')
    .where('workspace_id', '=', ws.id)
    .where('name', '=', variableName)
    .executeTakeFirstOrThrow();
  for (let i = 0; i < uses; i += 1) {
    const at = new Date().toISOString();
    const text = await db
      .insertInto('texts')
      .values({
        workspace_id: ws.id,
        kind: i % 2 === 0 ? 'component' : 'text_item',
        developer_id: `uses-${variableName}-${i}`,
        text: `Hi {{${variableName}}}`,
        status: 'NONE',
        tags: '[]',
        integrated: 0,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('text_variables').values({ text_id: text.id, variable_id: variable.id }).execute();
  }
}

describe('authentication', () => {
  it('answers 401 without a key on every route', async () => {
    const anonymous = apiClient(ctx.app, null);
    const calls = [
      anonymous.get('variables'),
      anonymous.post('variables', { variables: [greeting] }),
      anonymous.patch('variables', { updates: [{ developerId: 'user_name', data: { example: 'x' } }] }),
      anonymous.delete('variables', { developerIds: ['user_name'] }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Invalid or missing API key');
    }
  });
});

describe('GET /v2/variables', () => {
  it('is empty for a new workspace', async () => {
    const { api } = await createWorkspace(ctx);
    expect(await api.get('variables')).toMatchObject({ status: 200, body: [] });
  });

  it('lists every type in creation order with the name as id', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [labels, greeting] });
    await ws.api.post('variables', { variables: [count, help, fruits] });
    const res = await ws.api.get('variables');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([labels, greeting, count, help, fruits].map(asRecord));
  });
});

describe('POST /v2/variables', () => {
  it('creates all five types and answers 201 with the names in request order', async () => {
    const ws = await createWorkspace(ctx);
    const res = await ws.api.post('variables', { variables: all });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ names: ['user_name', 'count', 'help_link', 'fruits', 'labels'] });
    expect((await ws.api.get('variables')).body).toEqual(all.map(asRecord));
  });

  it('takes number data as the original documents it, numeric strings included, and returns it as given', async () => {
    const ws = await createWorkspace(ctx);
    const numbers = [
      { name: 'age', type: 'number', data: { example: 21, fallback: '18' } },
      { name: 'price', type: 'number', data: { example: '9.99' } },
    ];
    expect((await ws.api.post('variables', { variables: numbers })).status).toBe(201);
    expect((await ws.api.get('variables')).body).toEqual(numbers.map(asRecord));
    const patched = await ws.api.patch('variables', {
      updates: [{ developerId: 'price', data: { example: '10', fallback: 5 } }],
    });
    expect(patched.status).toBe(200);
    expect((await ws.api.get('variables')).body[1].data).toEqual({ example: '10', fallback: 5 });
  });

  it('returns map data whole even when its keys look like another type', async () => {
    const ws = await createWorkspace(ctx);
    const maps = [
      { name: 'm1', type: 'map', data: { text: 'a', url: 'b', other: 'c' } },
      { name: 'm2', type: 'map', data: { example: 'x', fallback: 'y', z: 'q' } },
      { name: 'm3', type: 'map', data: { '0': 'x', 'a b': 'y' } },
      { name: 'n', type: 'number', data: { example: 3.5, fallback: -1 } },
    ];
    expect((await ws.api.post('variables', { variables: maps })).status).toBe(201);
    expect((await ws.api.get('variables')).body).toEqual(maps.map(asRecord));
  });

  it('accepts names starting with _ and names of exactly 64 characters', async () => {
    const ws = await createWorkspace(ctx);
    const long = `a${'b'.repeat(63)}`;
    const res = await ws.api.post('variables', {
      variables: [
        { ...count, name: '_private' },
        { ...count, name: long },
      ],
    });
    expect(res.status).toBe(201);
    expect(await names(ws)).toEqual(['_private', long]);
  });

  const rule = "(1 to 64 letters, digits or '_', not starting with a digit)";
  it.each([
    ['user-name', `variables[1].name: 'user-name' is not a valid variable name ${rule}`],
    ['1st', `variables[1].name: '1st' is not a valid variable name ${rule}`],
    ['', `variables[1].name: '' is not a valid variable name ${rule}`],
    ['x'.repeat(65), `variables[1].name: '${'x'.repeat(65)}' is not a valid variable name ${rule}`],
  ])('rejects the name %j, naming the element, and creates nothing', async (name, message) => {
    const ws = await createWorkspace(ctx);
    const res = await ws.api.post('variables', { variables: [greeting, { ...count, name }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await names(ws)).toEqual([]);
  });

  it.each([
    [{ ...count, type: 'date' }, 'variables[1].type must be one of: "string", "number", "hyperlink", "list", "map"'],
    [{ name: 'n', type: 'number' }, 'variables[1].data is required'],
    [{ name: 'n', data: { example: 1 } }, 'variables[1].type is required'],
    [{ ...count, id: 'n' }, 'variables[1].id is not a known field'],
    [{ ...greeting, name: 'g', data: {} }, 'variables[1].data.example is required'],
    [{ ...greeting, name: 'g', data: { example: 1 } }, 'variables[1].data.example must be string'],
    [{ ...greeting, name: 'g', data: { example: 'a', fallback: 2 } }, 'variables[1].data.fallback must be string'],
    [{ ...greeting, name: 'g', data: { example: 'a', extra: 'b' } }, 'variables[1].data.extra is not a known field'],
    [{ ...greeting, name: 'g', data: 'Ada' }, 'variables[1].data must be object'],
    [
      { ...count, name: 'n', data: { example: 'three' } },
      'variables[1].data.example must be a number or a string holding one',
    ],
    [
      { ...count, name: 'n', data: { example: 3, fallback: 'x0' } },
      'variables[1].data.fallback must be a number or a string holding one',
    ],
    [{ ...help, name: 'h', data: { text: 'Help' } }, 'variables[1].data.url is required'],
    [{ ...help, name: 'h', data: { url: 'https://x.io' } }, 'variables[1].data.text is required'],
    [
      { ...help, name: 'h', data: { text: 'Help', url: 'help.html' } },
      "variables[1].data.url: 'help.html' is not an absolute URL",
    ],
    [{ ...fruits, name: 'l', data: [] }, 'variables[1].data must have at least one item'],
    [{ ...fruits, name: 'l', data: ['a', 1] }, 'variables[1].data[1] must be string'],
    [{ ...fruits, name: 'l', data: 'a' }, 'variables[1].data must be array'],
    [{ ...labels, name: 'm', data: {} }, 'variables[1].data must have at least one entry'],
    [{ ...labels, name: 'm', data: { en: 1 } }, 'variables[1].data.en must be string'],
    [{ ...labels, name: 'm', data: ['a'] }, 'variables[1].data must be object'],
  ])('rejects %j with "%s" and creates nothing', async (variable, message) => {
    const ws = await createWorkspace(ctx);
    const res = await ws.api.post('variables', { variables: [greeting, variable] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await names(ws)).toEqual([]);
  });

  it('rejects an empty or missing variables array', async () => {
    const { api } = await createWorkspace(ctx);
    const empty = await api.post('variables', { variables: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('variables must NOT have fewer than 1 items');
    const missing = await api.post('variables', {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('variables is required');
  });

  it('answers 409 for a name that already exists and creates nothing', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [greeting] });
    const res = await ws.api.post('variables', { variables: [count, { ...help, name: 'user_name' }] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('variables[1].name: Variable user_name already exists in workspace');
    expect(await names(ws)).toEqual(['user_name']);
  });

  it('answers 400 for a name (its developer ID) given twice in the request and creates nothing', async () => {
    const ws = await createWorkspace(ctx);
    const res = await ws.api.post('variables', { variables: [count, fruits, { ...greeting, name: 'count' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("variables[2].name: duplicate variable name 'count'");
    expect(await names(ws)).toEqual([]);
  });

  it('keeps workspaces apart: the same name may exist in two workspaces', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await a.api.post('variables', { variables: [greeting] });
    expect(await names(b)).toEqual([]);
    const res = await b.api.post('variables', { variables: [{ ...greeting, data: { example: 'Bea' } }] });
    expect(res.status).toBe(201);
    expect((await a.api.get('variables')).body).toEqual([asRecord(greeting)]);
  });
});

describe('PATCH /v2/variables', () => {
  it('replaces the data and keeps the type', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: all });
    const res = await ws.api.patch('variables', {
      updates: [
        { developerId: 'user_name', data: { example: 'Grace' } },
        { developerId: 'fruits', data: ['plum'] },
      ],
    });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    const byName = new Map((await ws.api.get('variables')).body.map((v: { id: string }) => [v.id, v]));
    expect(byName.get('user_name')).toEqual({ ...asRecord(greeting), data: { example: 'Grace' } });
    expect(byName.get('fruits')).toEqual({ ...asRecord(fruits), data: ['plum'] });
    expect(byName.get('count')).toEqual(asRecord(count));
  });

  it('checks data against the existing type and changes nothing when the last update is bad', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [greeting, count] });
    const res = await ws.api.patch('variables', {
      updates: [
        { developerId: 'user_name', data: { example: 'Grace' } },
        { developerId: 'count', data: { example: 'three' } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('updates[1].data.example must be a number or a string holding one');
    expect((await ws.api.get('variables')).body).toEqual([greeting, count].map(asRecord));
  });

  it('answers 404 for an unknown developer ID and changes nothing', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [greeting] });
    const res = await ws.api.patch('variables', {
      updates: [
        { developerId: 'user_name', data: { example: 'Grace' } },
        { developerId: 'missing', data: { example: 'x' } },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Variable with developer ID missing not found');
    expect((await ws.api.get('variables')).body).toEqual([asRecord(greeting)]);
  });

  it('rejects a developer ID given twice', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [greeting] });
    const res = await ws.api.patch('variables', {
      updates: [
        { developerId: 'user_name', data: { example: 'Grace' } },
        { developerId: 'user_name', data: { example: 'Ada' } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("updates[1].developerId: duplicate developer ID 'user_name'");
    expect((await ws.api.get('variables')).body).toEqual([asRecord(greeting)]);
  });

  it('rejects an empty updates array and a missing data', async () => {
    const ws = await createWorkspace(ctx);
    const empty = await ws.api.patch('variables', { updates: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('updates must NOT have fewer than 1 items');
    const noData = await ws.api.patch('variables', { updates: [{ developerId: 'user_name' }] });
    expect(noData.status).toBe(400);
    expect(noData.body.message).toBe('updates[0].data is required');
  });

  it('updates a variable whose name starts with _', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [{ ...count, name: '_n' }] });
    const res = await ws.api.patch('variables', { updates: [{ developerId: '_n', data: { example: 4 } }] });
    expect(res.status).toBe(200);
    expect((await ws.api.get('variables')).body[0].data).toEqual({ example: 4 });
  });

  it("cannot change another workspace's variable", async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await a.api.post('variables', { variables: [greeting] });
    const res = await b.api.patch('variables', { updates: [{ developerId: 'user_name', data: { example: 'Eve' } }] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Variable with developer ID user_name not found');
    expect((await a.api.get('variables')).body).toEqual([asRecord(greeting)]);
  });
});

describe('DELETE /v2/variables', () => {
  it('deletes the variables named', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: all });
    const res = await ws.api.delete('variables', { developerIds: ['count', 'labels'] });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    expect(await names(ws)).toEqual(['user_name', 'help_link', 'fruits']);
  });

  it('answers 404 for an unknown developer ID and deletes nothing', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [greeting, count] });
    const res = await ws.api.delete('variables', { developerIds: ['count', 'missing'] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Variable with developer ID missing not found');
    expect(await names(ws)).toEqual(['user_name', 'count']);
  });

  it('refuses to delete a variable that text still uses, and deletes nothing', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [greeting, count] });
    await useInTexts(ws, 'user_name', 2);
    const res = await ws.api.delete('variables', { developerIds: ['count', 'user_name'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Variable user_name is used by 2 records and cannot be deleted');
    expect(await names(ws)).toEqual(['user_name', 'count']);
  });

  it('says "1 record" for a single use', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [count] });
    await useInTexts(ws, 'count', 1);
    const res = await ws.api.delete('variables', { developerIds: ['count'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Variable count is used by 1 record and cannot be deleted');
  });

  it('rejects a developer ID given twice and an empty list', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [greeting] });
    const twice = await ws.api.delete('variables', { developerIds: ['user_name', 'user_name'] });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("developerIds[1]: duplicate developer ID 'user_name'");
    const empty = await ws.api.delete('variables', { developerIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('developerIds must NOT have fewer than 1 items');
    expect(await names(ws)).toEqual(['user_name']);
  });

  it("cannot delete another workspace's variable, and uses elsewhere do not block a delete", async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await a.api.post('variables', { variables: [greeting] });
    await b.api.post('variables', { variables: [greeting] });
    await useInTexts(a, 'user_name', 1);
    const res = await b.api.delete('variables', { developerIds: ['user_name'] });
    expect(res.status).toBe(200);
    const again = await b.api.delete('variables', { developerIds: ['user_name'] });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Variable with developer ID user_name not found');
    expect(await names(a)).toEqual(['user_name']);
  });
});

describe('service exports for other modules', () => {
  it('resolveVariables maps existing names to parsed variables; listVariables is in creation order', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await a.api.post('variables', { variables: [labels, count] });
    await b.api.post('variables', { variables: [fruits] });
    const { db } = ctx.database;
    const resolved = await ctx.services.variables.resolveVariables(db, a.id, ['count', 'fruits', 'nope']);
    expect([...resolved.keys()]).toEqual(['count']);
    expect(resolved.get('count')).toEqual({
      id: expect.any(Number),
      name: 'count',
      type: 'number',
      data: { example: 3 },
    });
    const listed = await ctx.services.variables.listVariables(db, a.id);
    expect(listed.map((v) => [v.name, v.data])).toEqual([
      ['labels', labels.data],
      ['count', count.data],
    ]);
  });
});
