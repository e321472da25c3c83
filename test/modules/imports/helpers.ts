import { expect } from 'vitest';
import type { Workspace } from '../../helpers/app.js';
import { file, type Kind, post } from '../exports/helpers.js';

/** The variables and variants of the exports' seed, without any text: an empty place to import into. */
export async function emptyLike(ws: Workspace): Promise<void> {
  await post(ws, 'variables', {
    variables: [
      { name: 'zeta', type: 'string', data: { example: 'Z' } },
      { name: 'name', type: 'string', data: { example: 'Ann' } },
      { name: 'count', type: 'number', data: { example: 3 } },
      { name: 'link', type: 'hyperlink', data: { text: 'our site', url: 'https://example.com' } },
      { name: 'alpha', type: 'string', data: { example: 'A' } },
    ],
  });
  await post(ws, 'variants', {
    variants: [
      { name: 'French', developerId: 'fr', description: 'Français "formel"', localeCode: 'fr' },
      { name: 'Russian', developerId: 'ru', localeCode: 'ru' },
    ],
  });
  await post(ws, 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
}

/** POST /v2/import as JSON; the body of the answer, after checking its status. */
export async function importFile(ws: Workspace, body: Record<string, unknown>, status = 200): Promise<any> {
  const res = await ws.api.post('import', body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** Where a kind's import goes. */
export const intoKind = (kind: Kind) => (kind === 'textItems' ? { projectId: 'web' } : { library: true });

export { file, type Kind };
