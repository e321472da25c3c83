import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace, withFilter } from '../../helpers/app.js';

const ctx = await setupApp();

interface Kind {
  path: 'textItems' | 'components';
  seed: (ws: Workspace) => Promise<void>;
}

const kinds: Kind[] = [
  {
    path: 'textItems',
    seed: async (ws) => {
      expect((await ws.api.post('projects', { projects: [{ name: 'App', developerId: 'app' }] })).status).toBe(201);
      const res = await ws.api.post('textItems', {
        projectId: 'app',
        textItems: [
          {
            developerId: 'hello',
            text: 'Hello',
            plurals: [
              { form: 'one', text: 'Hello' },
              { form: 'other', text: 'Hellos' },
            ],
          },
          { developerId: 'bye', text: 'Bye' },
        ],
      });
      expect(res.status).toBe(201);
    },
  },
  {
    path: 'components',
    seed: async (ws) => {
      const res = await ws.api.post('components', {
        components: [
          {
            developerId: 'hello',
            name: 'Hello',
            text: 'Hello',
            plurals: [
              { form: 'one', text: 'Hello' },
              { form: 'other', text: 'Hellos' },
            ],
          },
          { developerId: 'bye', name: 'Bye', text: 'Bye' },
        ],
      });
      expect(res.status).toBe(201);
    },
  },
];

async function etags(ws: Workspace, path: string): Promise<Record<string, string>> {
  const res = await ws.api.get(withFilter(path, { variants: [{ id: 'all' }] }, '&withEtag=true'));
  expect(res.status).toBe(200);
  const out: Record<string, string> = {};
  for (const record of res.body as { id: string; pluralForm: string | null; etag: string }[]) {
    const id = record.pluralForm ? record.id.slice(0, -(record.pluralForm.length + 1)) : record.id;
    // Every record of one text (base, plural forms, variants) carries the text's one ETag.
    if (out[id] !== undefined) expect(record.etag).toBe(out[id]);
    out[id] = record.etag;
  }
  return out;
}

describe.each(kinds)('If-Match on PATCH /v2/$path', ({ path, seed }) => {
  it('GET gives each text an ETag only when asked; a PATCH with the current one succeeds and changes it', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const plain = await ws.api.get(path);
    expect(plain.body[0]).not.toHaveProperty('etag');
    const before = await etags(ws, path);
    expect(before.hello).toMatch(/^"[\w.]+"$/);
    expect(before.hello).not.toBe(before.bye);

    const ok = await ws.api.call(
      'PATCH',
      path,
      { updates: [{ developerId: 'hello', text: 'Hi' }] },
      { 'if-match': before.hello ?? '' },
    );
    expect(ok.status).toBe(200);
    const after = await etags(ws, path);
    expect(after.hello).not.toBe(before.hello);
    expect(after.bye).toBe(before.bye);
  });

  it('a stale ETag is a 412 naming the text, and nothing of the batch is written', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const read = await etags(ws, path);
    // Someone else changes "bye" after it was read.
    expect((await ws.api.patch(path, { updates: [{ developerId: 'bye', notes: 'theirs' }] })).status).toBe(200);
    const updates = [
      { developerId: 'hello', text: 'Mine' },
      { developerId: 'bye', text: 'Mine too' },
    ];
    const res = await ws.api.call('PATCH', path, { updates }, { 'if-match': `${read.hello}, ${read.bye}` });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('precondition_failed');
    expect(res.body.message).toMatch(/^updates\[1\]: bye changed since it was read/);
    const texts = Object.fromEntries(
      (await ws.api.get(path)).body.map((r: { id: string; text: string }) => [r.id, r.text]),
    );
    expect(texts).toMatchObject({ hello: 'Hello', bye: 'Bye' });

    const fresh = await etags(ws, path);
    const retry = await ws.api.call('PATCH', path, { updates }, { 'if-match': `${fresh.hello}, ${fresh.bye}` });
    expect(retry.status).toBe(200);
  });

  it("a variant value's change changes the text's ETag; * and no header write unconditionally", async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    expect((await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] })).status).toBe(201);
    const read = await etags(ws, path);
    const variant = await ws.api.patch(path, { variantId: 'fr', updates: [{ developerId: 'hello', text: 'Bonjour' }] });
    expect(variant.status).toBe(200);
    const stale = await ws.api.call(
      'PATCH',
      path,
      { updates: [{ developerId: 'hello', notes: 'x' }] },
      { 'if-match': read.hello ?? '' },
    );
    expect(stale.status).toBe(412);
    const any = await ws.api.call(
      'PATCH',
      path,
      { updates: [{ developerId: 'hello', notes: 'x' }] },
      { 'if-match': '*' },
    );
    expect(any.status).toBe(200);
    expect((await ws.api.patch(path, { updates: [{ developerId: 'hello', notes: 'y' }] })).status).toBe(200);
  });
});
