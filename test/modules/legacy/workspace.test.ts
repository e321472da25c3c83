import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp } from '../../helpers/app.js';
import { legacy } from './helpers.js';

const ctx = await setupApp();

describe('GET and PATCH /v2/workspace', () => {
  it('shows the settings, with the library reachable by default', async () => {
    const ws = await createWorkspace(ctx, 'Acme');
    const res = await ws.api.get('workspace');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: expect.stringMatching(/^Acme \d+$/),
      baseLanguage: 'en',
      libraryDeveloperMode: true,
    });
  });

  it('changes only the fields sent, the locale in canonical form, and answers the settings', async () => {
    const ws = await createWorkspace(ctx);
    const res = await ws.api.patch('workspace', { name: '  Renamed ', baseLanguage: 'pt-br' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Renamed', baseLanguage: 'pt-BR', libraryDeveloperMode: true });
    await ws.api.patch('workspace', { libraryDeveloperMode: false });
    expect((await ws.api.get('workspace')).body).toEqual({
      name: 'Renamed',
      baseLanguage: 'pt-BR',
      libraryDeveloperMode: false,
    });
  });

  it('advances the revision when something changes, so ETags change; a no-op changes nothing', async () => {
    const ws = await createWorkspace(ctx);
    const etag = async () => String((await ws.api.get('workspace')).headers.etag);
    const first = await etag();
    await ws.api.patch('workspace', { baseLanguage: 'en' });
    expect(await etag()).toBe(first);
    await ws.api.patch('workspace', { baseLanguage: 'fr' });
    const second = await etag();
    expect(second).not.toBe(first);
    expect((await ws.api.get('workspace', { 'if-none-match': first })).status).toBe(200);
    expect((await ws.api.get('workspace', { 'if-none-match': second })).status).toBe(304);
  });

  it('answers bad settings with a 400 naming the field, changing nothing', async () => {
    const ws = await createWorkspace(ctx);
    const before = (await ws.api.get('workspace')).body;
    const cases: Array<[object, string]> = [
      [{ baseLanguage: 'not a tag!' }, "baseLanguage: 'not a tag!' is not a valid BCP 47 language tag"],
      [{ name: '   ', baseLanguage: 'de' }, 'name: must not be empty'],
      [{ name: '' }, 'name must NOT have fewer than 1 characters'],
      [{ libraryDeveloperMode: 'yes' }, 'libraryDeveloperMode must be boolean'],
      [{ revision: 3 }, 'revision is not a known field'],
    ];
    for (const [body, message] of cases) {
      const res = await ws.api.patch('workspace', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await ws.api.get('workspace')).body).toEqual(before);
  });

  it('needs a key and touches only its own workspace', async () => {
    expect((await apiClient(ctx.app, null).get('workspace')).status).toBe(401);
    expect((await apiClient(ctx.app, 'cdk_bad').patch('workspace', { name: 'X' })).status).toBe(401);
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await a.api.patch('workspace', { name: 'Only A', libraryDeveloperMode: false });
    expect((await b.api.get('workspace')).body.libraryDeveloperMode).toBe(true);
    expect((await b.api.get('workspace')).body.name).not.toBe('Only A');
  });
});

describe('developer mode of new projects', () => {
  it('is off unless the create asks for it, and PATCH switches it', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', {
      projects: [
        { name: 'Off', developerId: 'off' },
        { name: 'On', developerId: 'on', developerMode: true },
      ],
    });
    expect((await ws.api.get('projects')).body.map((p: { developerMode: boolean }) => p.developerMode)).toEqual([
      false,
      true,
    ]);
    expect((await legacy(ctx, ws, '/projects/off')).status).toBe(403);
    expect((await legacy(ctx, ws, '/projects/on')).status).toBe(200);
    await ws.api.patch('projects', { updates: [{ developerId: 'off', developerMode: true }] });
    expect((await legacy(ctx, ws, '/projects/off')).status).toBe(200);
  });
});
