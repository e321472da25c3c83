import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { driver, post } from './helpers.js';
import { accessorNamesOf } from './swift-grammar.js';

// A library larger than any argument list a call can take: the driver is built with loops, never
// by spreading the accessors' lines into a call ("Maximum call stack size exceeded" at 14,001).
const ctx = await setupApp();
const ws = await createWorkspace(ctx);
const COMPONENTS = 20_500;
const pad = (n: number) => String(n).padStart(5, '0');
for (let from = 0; from < COMPONENTS; from += 1_000) {
  const components = Array.from({ length: Math.min(1_000, COMPONENTS - from) }, (_, i) => ({
    developerId: `key.${pad(from + i)}`,
    text: `Text ${from + i}`,
  }));
  await post(ws, 'components', { components });
}

describe('POST /v2/cli/swiftDriver with a large library', () => {
  it('answers one accessor per component, in developer ID order', { timeout: 120_000 }, async () => {
    const res = await driver(ctx.app, '/v2/cli/swiftDriver', ws.key, {});
    expect(res.status, res.raw.body.slice(0, 200)).toBe(200);
    // Every accessor's name, in order: what the driver's size could break. What an accessor holds
    // is decoded whole in the other driver tests, on libraries of a readable size.
    const names = accessorNamesOf(res.raw.body);
    expect(names).toEqual(Array.from({ length: COMPONENTS }, (_, i) => `key${pad(i)}`));
  });
});
