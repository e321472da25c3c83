import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { KINDS, seed } from '../exports/helpers.js';
import { emptyLike, file, importFile, intoKind } from './helpers.js';

const ctx = await setupApp();
const source: Workspace = await createWorkspace(ctx);
await seed(source);

const JSON_FORMATS = ['json_i18next', 'json_vue_i18n', 'json_icu', 'arb'];

describe.each(KINDS)('export, import into an empty place, export again: %s', (kind) => {
  it.each(JSON_FORMATS)('%s gives the same bytes for base text and every variant', async (format) => {
    const target = await createWorkspace(ctx);
    await emptyLike(target);
    for (const variantId of [undefined, 'fr', 'ru']) {
      const params = { format, ...(variantId && { variantId }) };
      const exported = await file(source, kind, params);
      const report = await importFile(target, {
        format,
        content: exported,
        ...intoKind(kind),
        ...(variantId && { variantId }),
      });
      expect(report.skipped).toEqual([]);
      // The base file creates every text; a variant file updates the ones it holds.
      expect(variantId ? report.updated.length : report.created.length).toBeGreaterThan(variantId === 'ru' ? 0 : 10);
      expect(await file(target, kind, params)).toBe(exported);
    }
  });
});
