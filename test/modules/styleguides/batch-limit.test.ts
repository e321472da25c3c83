import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createWorkspace, setupApp } from '../../helpers/app.js';

// Every batch of the style guide routes takes at most LIMIT_BATCH_ITEMS elements.
const ctx = await setupApp({ limits: { ...loadConfig({}).limits, batchItems: 2 } });

const guide = (n: number) => ({ name: `Guide ${n}` });
const rule = (n: number) => ({ styleguideId: 'default', sectionId: 'rules', name: `Rule ${n}` });
const term = (n: number) => ({ styleguideId: 'default', sectionId: 'wordlist', preferred: `term ${n}` });
const ref = (n: number) => ({ styleguideId: 'default', developerId: `x${n}` });

describe('style guide batches and LIMIT_BATCH_ITEMS', () => {
  it.each([
    ['POST', 'styleguides', 201, (k: number) => ({ styleguides: [...Array(k).keys()].map(guide) })],
    ['DELETE', 'styleguides', 404, (k: number) => ({ developerIds: [...Array(k).keys()].map((n) => `g${n}`) })],
    ['POST', 'styleguides/rules', 201, (k: number) => ({ rules: [...Array(k).keys()].map(rule) })],
    ['PATCH', 'styleguides/rules', 404, (k: number) => ({ updates: [...Array(k).keys()].map(ref) })],
    ['DELETE', 'styleguides/rules', 404, (k: number) => ({ rules: [...Array(k).keys()].map(ref) })],
    ['POST', 'styleguides/terms', 201, (k: number) => ({ terms: [...Array(k).keys()].map(term) })],
    ['PATCH', 'styleguides/terms', 404, (k: number) => ({ updates: [...Array(k).keys()].map(ref) })],
    ['DELETE', 'styleguides/terms', 404, (k: number) => ({ terms: [...Array(k).keys()].map(ref) })],
    ['POST', 'styleguides/lint', 200, (k: number) => ({ texts: [...Array(k).keys()].map((n) => ({ text: `t${n}` })) })],
  ] as const)('%s /v2/%s takes two elements, not three', async (method, path, status, body) => {
    const { api } = await createWorkspace(ctx);
    const three = await api.call(method, path, body(3));
    expect(three.status).toBe(400);
    expect(three.body.message).toBe(`${Object.keys(body(3))[0]} must NOT have more than 2 items`);
    // Two pass validation: the answer is the endpoint's own (404 for the ids that do not exist).
    expect((await api.call(method, path, body(2))).status).toBe(status);
  });
});
