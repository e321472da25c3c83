import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { setupApp } from '../helpers/app.js';

// With LIMIT_BATCH_ITEMS at 3 and LIMIT_FILTER_IDS at 5, every list a request body carries at its
// top level is documented, and checked, at one of the two: 3 for a batch of records, 5 for a list
// of ids that selects what to read. No route keeps a limit of its own.
const ctx = await setupApp({ limits: { ...loadConfig({}).limits, batchItems: 3, filterIds: 5 } });

/** Lists whose size is a rule of the domain (a workspace's statuses, a guide's sections), not a limit to configure. */
const DOMAIN_RULES = new Set([
  'PUT /v2/statuses statuses',
  'PATCH /v2/styleguides sections',
  'POST /v2/distributions formats',
]);
/** Lists of ids that select what a read covers. */
const FILTERS = new Set([
  'POST /v2/cli/swiftDriver projects',
  'POST /v2/cli/swiftDriver statuses',
  'POST /v1/ios/swift-driver projects',
  'POST /v2/distributions projects',
]);

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  maxItems?: number;
  maxProperties?: number;
}

async function batches(): Promise<{ route: string; field: string; max: number | undefined }[]> {
  const document = (await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json() as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  };
  const out: { route: string; field: string; max: number | undefined }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const schema = operation.requestBody?.content['application/json']?.schema;
      for (const [field, property] of Object.entries(schema?.properties ?? {})) {
        if (property.type !== 'array') continue;
        const route = `${method.toUpperCase()} ${path}`;
        if (!DOMAIN_RULES.has(`${route} ${field}`)) out.push({ route, field, max: property.maxItems });
      }
    }
  }
  return out;
}

describe('LIMIT_BATCH_ITEMS and LIMIT_FILTER_IDS', () => {
  it('bounds every batch a request body carries', async () => {
    const found = await batches();
    // The batch routes of every module that writes records are in the sweep.
    const routes = new Set(found.map((b) => b.route));
    for (const route of [
      'POST /v2/variables',
      'PATCH /v2/variables',
      'DELETE /v2/variables',
      'POST /v2/webhooks/deliveries/redeliver',
      'POST /v2/components',
      'PATCH /v2/textItems',
      'POST /v2/comments',
      'DELETE /v2/comments',
      'POST /v2/suggestions',
      'POST /v2/suggestions/accept',
      'POST /v2/suggestions/withdraw',
    ]) {
      expect(routes, route).toContain(route);
    }
    expect(found.filter((b) => b.max !== (FILTERS.has(`${b.route} ${b.field}`) ? 5 : 3))).toEqual([]);
  });
});
