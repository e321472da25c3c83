import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type Api, createWorkspace, setupApp } from '../../helpers/app.js';
import { addRules } from './factories.js';

// One lint at a time, two waiting: a third concurrent one past those is refused.
const limits = { ...loadConfig({}).limits, lintConcurrent: 1, lintQueue: 2 };
const ctx = await setupApp({ limits });

const lint = (api: Api, body: unknown) => api.post('styleguides/lint', body);

// Enough texts that a lint takes several slices of the event loop, so the requests sent
// together all reach the bound while the first is still at work.
const texts = Array.from({ length: 300 }, (_, i) => ({
  id: `t${i}`,
  text: `Lorem ipsum ${i} dolor sit amet. `.repeat(30),
}));

describe('POST /v2/styleguides/lint: lints at once per server', () => {
  it('runs one, queues two, refuses the rest with a 503 and Retry-After', async () => {
    const { api } = await createWorkspace(ctx);
    await addRules(api, [{ developerId: 'dolor', check: { type: 'regex', pattern: 'dolor', message: 'no dolor' } }]);
    const alone = await lint(api, { texts });
    expect(alone.status).toBe(200);

    const answers = await Promise.all(Array.from({ length: 6 }, () => lint(api, { texts })));
    const ok = answers.filter((res) => res.status === 200);
    const refused = answers.filter((res) => res.status === 503);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(3);
    // The queued lints answer in full, as a lint on its own does.
    for (const res of ok) expect(res.body).toEqual(alone.body);
    for (const res of refused) {
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body.code).toBe('unavailable');
      expect(res.body.message).toMatch(/^lint: 3 lints are running or waiting in this server \(LIMIT_LINT_CONCURRENT/);
    }
    // Every place is free again.
    const after = await Promise.all(Array.from({ length: 3 }, () => lint(api, { texts })));
    expect(after.map((res) => res.status)).toEqual([200, 200, 200]);
  });

  it('a lint that fails gives its place back', async () => {
    const { api } = await createWorkspace(ctx);
    for (let i = 0; i < 5; i++) {
      const res = await lint(api, { texts: [{ text: 'Hi', variantId: 'nowhere' }] });
      expect(res.status).toBe(400);
    }
    const answers = await Promise.all(Array.from({ length: 3 }, () => lint(api, { texts: [{ text: 'Hi' }] })));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
  });
});
