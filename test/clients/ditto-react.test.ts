import { Ditto, DittoProvider } from 'ditto-react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../helpers/app.js';

/**
 * The original's React SDK, `ditto-react`, reads `structured` files as its source. Its variables
 * must come out as it reads them: a map's value for the key the app passes, a list's value, a
 * string's fallback, a hyperlink's text.
 */
const ctx = await setupApp();

describe('ditto-react reads the structured files', () => {
  it('interpolates string, number, hyperlink, list and map variables from a v1 structured export', async () => {
    const ws = await createWorkspace(ctx);
    const ok = (res: { status: number; body: unknown }) =>
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    ok(
      await ws.api.post('variables', {
        variables: [
          { name: 'role', type: 'map', data: { admin: 'an administrator', editor: 'an editor' } },
          { name: 'fruit', type: 'list', data: ['apples', 'pears'] },
          { name: 'user', type: 'string', data: { example: 'Ann', fallback: 'friend' } },
          { name: 'docs', type: 'hyperlink', data: { text: 'the guide', url: 'https://example.com' } },
        ],
      }),
    );
    ok(await ws.api.post('projects', { projects: [{ name: 'Web', developerMode: true }] }));
    const projectId = (await ws.api.get('projects')).body[0].id as string;
    ok(
      await ws.api.post('textItems', {
        projectId,
        textItems: [
          { developerId: 'role-line', text: 'You are {{role}} here.', variables: ['role'] },
          { developerId: 'fruit-line', text: 'The cart has {{fruit}}.', variables: ['fruit'] },
          { developerId: 'hello', text: 'Hello, {{user}}! Read {{docs}}.', variables: ['user', 'docs'] },
        ],
      }),
    );
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/v1/projects/${projectId}?format=structured`,
      headers: { authorization: `token ${ws.key}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const structured = res.json();
    expect(structured['role-line'].variables.role).toEqual({
      admin: 'an administrator',
      editor: 'an editor',
      __type: 'map',
    });
    expect(structured['fruit-line'].variables.fruit).toEqual(['apples', 'pears']);

    const render = (textId: string, variables?: Record<string, string>) =>
      renderToStaticMarkup(
        createElement(
          DittoProvider,
          { source: { [projectId]: { base: structured } }, projectId } as never,
          createElement(Ditto, { textId, ...(variables ? { variables } : {}) } as never),
        ),
      );
    expect(render('role-line', { role: 'admin' })).toBe('You are an administrator here.');
    expect(render('role-line', { role: 'editor' })).toBe('You are an editor here.');
    expect(render('fruit-line', { fruit: 'PEARS' })).toBe('The cart has pears.');
    expect(render('hello')).toBe('Hello, Ann! Read the guide.');
  });
});
