import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, ok, setupApp, type Workspace } from '../../helpers/app.js';
import { signedIn } from '../accounts/people.js';

const ctx = await setupApp();

const only = (...projects: string[]) =>
  encodeURIComponent(JSON.stringify({ projects: projects.map((id) => ({ id })) }));
const i18next = (...projects: string[]) => `textItems/export?format=json_i18next&filter=${only(...projects)}`;

/** Two projects, a release of both, then the text of both edited. */
async function pinnedWorkspace(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await ok(
    ws.api.post('projects', {
      projects: [
        { name: 'Web', developerId: 'web' },
        { name: 'App', developerId: 'app' },
      ],
    }),
  );
  await ok(ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'title', text: 'Welcome' }] }));
  await ok(ws.api.post('textItems', { projectId: 'app', textItems: [{ developerId: 'cta', text: 'Buy' }] }));
  await ok(ws.api.post('releases', { name: '2026.12.1', filter: { statuses: [] } }));
  await ok(ws.api.post('releases', { name: 'web-only', filter: { projects: ['web'], statuses: [] } }));
  await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', text: 'Welcome (edited)' }] }));
  await ok(ws.api.patch('textItems', { updates: [{ developerId: 'cta', text: 'Buy (edited)' }] }));
  return ws;
}

describe('pinned releases: what a puller gets of a project', () => {
  it("answers an API key's reads of a pinned project from the release, byte for byte, and says so", async () => {
    const ws = await pinnedWorkspace();
    const released = await ws.api.get(`${i18next('web')}&release=2026.12.1`);
    const current = await ws.api.get(i18next('web'));
    expect(current.raw.body).toContain('Welcome (edited)');
    expect(released.raw.body).toContain('"Welcome"');

    const pinned = await ws.api.put('releasePins', { projectId: 'web', release: '2026.12.1' });
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(200);
    expect(pinned.body.pins).toEqual([
      { projectId: 'web', release: '2026.12.1', pinnedBy: ws.email, pinnedAt: expect.any(String) },
    ]);

    const read = await ws.api.get(i18next('web'));
    expect(read.status).toBe(200);
    expect(read.raw.body).toBe(released.raw.body);
    expect(read.headers['x-copydesk-release']).toBe('2026.12.1');
    expect(read.headers.etag).toBe(released.headers.etag);
    // The same with the list of records, and a revalidation is a 304.
    const list = await ws.api.get(`textItems?filter=${only('web')}`);
    expect(list.body.map((r: { text: string }) => r.text)).toEqual(['Welcome']);
    expect((await ws.api.get(i18next('web'), { 'if-none-match': String(read.headers.etag) })).status).toBe(304);

    // `release=` wins; the unpinned project reads its current text.
    const named = await ws.api.get(`${i18next('web')}&release=web-only`);
    expect(named.headers['x-copydesk-release']).toBeUndefined();
    const app = await ws.api.get(i18next('app'));
    expect(app.raw.body).toContain('Buy (edited)');
    expect(app.headers['x-copydesk-release']).toBeUndefined();

    // Unpinned: the current text again.
    await ok(ws.api.put('releasePins', { projectId: 'web', release: null }));
    expect((await ws.api.get(i18next('web'))).raw.body).toContain('Welcome (edited)');
    expect((await ok(ws.api.get('releasePins'))).pins).toEqual([]);
  });

  it('refuses a read of projects pinned differently, and follows pins without a project filter only when all agree', async () => {
    const ws = await pinnedWorkspace();
    await ok(ws.api.put('releasePins', { projectId: 'web', release: '2026.12.1' }));
    const mixed = await ws.api.get(i18next('web', 'app'));
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toMatch(/^filter\.projects: .*web \(2026\.12\.1\), app \(current text\)/);
    expect((await ws.api.get('textItems/export?format=json_i18next')).status).toBe(400);

    await ok(ws.api.put('releasePins', { projectId: 'app', release: '2026.12.1' }));
    const all = await ws.api.get('textItems/export?format=json_i18next');
    expect(all.status).toBe(200);
    expect(all.headers['x-copydesk-release']).toBe('2026.12.1');
    expect(all.raw.body).not.toContain('edited');
    // The components are not a project's: pins leave them alone.
    expect((await ws.api.get('components/export?format=json_i18next')).headers['x-copydesk-release']).toBeUndefined();
  });

  it("leaves a signed-in person's reads on the current text", async () => {
    const ws = await pinnedWorkspace();
    await ok(ws.api.put('releasePins', { projectId: 'web', release: '2026.12.1' }));
    const person = await signedIn(ctx.app, ws, 'viewer');
    const read = await person.call('GET', i18next('web'));
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain('Welcome (edited)');
    expect(read.headers['x-copydesk-release']).toBeUndefined();
    // People see the pins (the settings page lists them) but only admins set them.
    expect((await person.call('GET', 'releasePins')).body.pins).toHaveLength(1);
    expect((await person.call('PUT', 'releasePins', { projectId: 'web', release: null })).status).toBe(403);
  });

  it('checks a pin: its project, its release, a release that holds the project, and who sets it', async () => {
    const ws = await pinnedWorkspace();
    const bad = async (body: unknown, status: number, message: RegExp) => {
      const res = await ws.api.put('releasePins', body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message).toMatch(message);
    };
    await bad({ projectId: 'nope', release: '2026.12.1' }, 404, /^projectId: project nope not found/);
    await bad({ projectId: 'web', release: 'nope' }, 404, /^release: release nope not found/);
    await bad({ projectId: 'app', release: 'web-only' }, 400, /^release: release web-only does not hold project app/);
    await bad({ projectId: 'web' }, 400, /release/);
    await bad({ projectId: 'web', release: '2026.12.1', extra: 1 }, 400, /extra/);

    const editorEmail = `editor-pins-${ws.id}@example.com`;
    await ctx.services.accounts.createUser({ workspaceId: ws.id, email: editorEmail, name: 'Ed', role: 'editor' });
    const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email: editorEmail });
    const editor = apiClient(ctx.app, key);
    expect((await editor.put('releasePins', { projectId: 'web', release: '2026.12.1' })).status).toBe(403);
    expect((await ok(ws.api.get('releasePins'))).pins).toEqual([]);

    // Another workspace neither sees nor reads through these pins.
    await ok(ws.api.put('releasePins', { projectId: 'web', release: 'web-only' }));
    const other = await createWorkspace(ctx);
    expect((await ok(other.api.get('releasePins'))).pins).toEqual([]);
    expect((await other.api.put('releasePins', { projectId: 'web', release: 'web-only' })).status).toBe(404);
  });

  it('keeps a pinned release from being deleted, and drops the pin of a deleted project', async () => {
    const ws = await pinnedWorkspace();
    await ok(ws.api.put('releasePins', { projectId: 'web', release: 'web-only' }));
    const refused = await ws.api.delete('releases/web-only', undefined);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Release web-only is pinned for web/);

    await ok(ws.api.delete('projects', { developerIds: ['web'] }));
    expect((await ok(ws.api.get('releasePins'))).pins).toEqual([]);
    expect((await ws.api.delete('releases/web-only', undefined)).status).toBe(200);
  });
});
