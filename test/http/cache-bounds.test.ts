import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../helpers/app.js';

// A small budget: 8 KiB in all, one body at most a quarter of it (2 KiB).
const ctx = await setupApp({ responseCacheBytes: 8 * 1024 });

/** A workspace with one variant whose description makes the GET /variants body about `size` bytes. */
async function workspaceWithVariant(size: number): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  const description = 'd'.repeat(size);
  const res = await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr', description }] });
  expect(res.status).toBe(201);
  return ws;
}

/** Renames the variant behind the service's back: a kept body still shows the old name. */
const renameBehindTheCache = (ws: Workspace, name: string) =>
  ctx.database.db.updateTable('variants').set({ name }).where('workspace_id', '=', ws.id).execute();

const nameOf = async (ws: Workspace) => {
  const res = await ws.api.get('variants');
  expect(res.status).toBe(200);
  return (res.body as { name: string }[])[0]?.name;
};

describe('the response cache is bounded by bytes', () => {
  it('evicts the least recently used bodies once the bytes kept pass the budget', async () => {
    const first = await workspaceWithVariant(500);
    expect(await nameOf(first)).toBe('French');
    await renameBehindTheCache(first, 'Renamed');
    expect(await nameOf(first)).toBe('French');
    // Twenty other bodies of about 600 bytes: far more than 8 KiB together.
    for (let i = 0; i < 20; i += 1) await nameOf(await workspaceWithVariant(500));
    expect(await nameOf(first)).toBe('Renamed');
  });

  it('keeps the recently used body while others come and go within the budget', async () => {
    const kept = await workspaceWithVariant(100);
    expect(await nameOf(kept)).toBe('French');
    await renameBehindTheCache(kept, 'Renamed');
    for (let i = 0; i < 3; i += 1) await nameOf(await workspaceWithVariant(100));
    expect(await nameOf(kept)).toBe('French');
  });

  it('never keeps a body larger than a quarter of the budget', async () => {
    const large = await workspaceWithVariant(3_000);
    expect(await nameOf(large)).toBe('French');
    await renameBehindTheCache(large, 'Renamed');
    expect(await nameOf(large)).toBe('Renamed');
  });
});
