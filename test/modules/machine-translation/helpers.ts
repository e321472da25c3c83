import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { type Config, loadConfig } from '../../../src/config.js';
import { ok, type Workspace, withFilter } from '../../helpers/app.js';

/** The configuration machine translation tests run with: a secret, private addresses allowed. */
export const mtConfig = (overrides: Partial<Config['machineTranslation']> = {}): Partial<Config> => ({
  machineTranslation: {
    ...loadConfig({}).machineTranslation,
    secret: randomBytes(32),
    allowPrivateNetworks: true,
    maxRetryAfterSeconds: 2,
    ...overrides,
  },
});

export const silentLog = { info: () => {}, error: () => {} };

/** A provider of `kind` at the fake server, answering its record. */
export async function addProvider(
  ws: Workspace,
  fields: { kind: 'deepl' | 'libretranslate' | 'openai'; url: string } & Record<string, unknown>,
) {
  return ok(
    ws.api.post('machineTranslation/providers', {
      name: `${fields.kind} test`,
      developerId: fields.kind,
      privateNetwork: true,
      requestsPerMinute: 6000,
      ...(fields.kind === 'openai' && { model: 'llama3.1:8b' }),
      ...fields,
    }),
  );
}

/** A French and a Polish variant, a project `web` with the texts given. */
export async function translationWorld(ws: Workspace, textItems: Record<string, unknown>[]) {
  await ok(
    ws.api.post('variants', {
      variants: [
        { name: 'French', developerId: 'fr', localeCode: 'fr-FR' },
        { name: 'Polish', developerId: 'pl', localeCode: 'pl' },
      ],
    }),
  );
  await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
  await ok(ws.api.post('textItems', { projectId: 'web', textItems }));
}

/** The variant's records of the project's text items, by developer ID (plural form records apart). */
export async function variantRecords(ws: Workspace, variantId: string, extra = '') {
  const res = await ws.api.get(withFilter('textItems', { variants: [{ id: variantId }] }, extra));
  expect(res.status).toBe(200);
  return res.body as any[];
}
