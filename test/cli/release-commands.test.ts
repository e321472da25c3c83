import { describe, expect, it } from 'vitest';
import { createWorkspace, ok, setupApp } from '../helpers/app.js';
import { seed } from '../modules/exports/helpers.js';
import { copydesk } from './backup-helpers.js';

const ctx = await setupApp();

describe('copydesk release', () => {
  it('creates, lists, diffs and publishes releases of a workspace', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const at = ['--workspace', String(ws.id)];
    const made = await copydesk(ctx, 'release', 'create', '2026.12.1', ...at, '--statuses', '', '--json');
    expect(made.err).toEqual([]);
    expect(made.json()).toMatchObject({ name: '2026.12.1', createdBy: 'cli', components: 15 });
    const pinned = 'textItems/export?format=android&variantId=fr&release=2026.12.1';
    const before = (await ws.api.get(pinned)).raw.body;

    await ok(ws.api.patch('components', { updates: [{ developerId: 'greet', text: 'Hello' }] }));
    const diff = await copydesk(ctx, 'release', 'diff', '2026.12.1', ...at);
    expect(diff.out).toEqual([`~ component greet: "Hi {{name}}, it's 100% on {{link}}!" -> "Hello"`]);
    const second = await copydesk(ctx, 'release', 'create', '2026.12.2', ...at, '--statuses', '', '--no-library');
    expect(second.out[0]).toMatch(/^Release 2026\.12\.2: 15 text items, 0 components \([0-9a-f]{64}\)$/);
    const listed = await copydesk(ctx, 'release', 'list', ...at, '--json');
    expect(listed.json().map((r: { name: string }) => r.name)).toEqual(['2026.12.1', '2026.12.2']);
    expect((await ws.api.get(pinned)).raw.body).toBe(before);

    const { token } = await ok(ws.api.post('distributions', { name: 'apps', projects: ['web'], formats: ['android'] }));
    const published = await copydesk(ctx, 'release', 'publish', '2026.12.1', '--distribution', 'apps', ...at);
    expect(published.out).toEqual(['Published 2026.12.1 to apps: its latest from now on']);
    const latest = await ctx.app.inject({ url: `/delivery/${token}/latest/fr/android/web` });
    expect(latest.body).toBe(before);
    const history = await ok(ws.api.get('history?kind=distribution'));
    expect(history.changes[0]).toMatchObject({ actor: 'cli', action: 'published' });

    const taken = await copydesk(ctx, 'release', 'create', '2026.12.1', ...at);
    expect(taken.code).toBe(1);
    expect(taken.err).toEqual(['copydesk: name: a release named 2026.12.1 already exists']);
  });
});
