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

describe.each(KINDS)('export, import, export of the native formats: %s', (kind) => {
  it('android gives the same bytes for base text and every variant', async () => {
    const target = await createWorkspace(ctx);
    await emptyLike(target);
    for (const variantId of [undefined, 'fr', 'ru']) {
      const params = { format: 'android', ...(variantId && { variantId }) };
      const exported = await file(source, kind, params);
      const report = await importFile(target, {
        format: 'android',
        content: exported,
        ...intoKind(kind),
        ...(variantId && { variantId }),
      });
      expect(report.skipped).toEqual([]);
      expect(await file(target, kind, params)).toBe(exported);
    }
  });

  it('ios-strings with its stringsdict gives the same bytes of both files', async () => {
    const target = await createWorkspace(ctx);
    await emptyLike(target);
    for (const variantId of [undefined, 'fr', 'ru']) {
      const params = (format: string) => ({ format, ...(variantId && { variantId }) });
      const strings = await file(source, kind, params('ios-strings'));
      const stringsdict = await file(source, kind, params('ios-stringsdict'));
      const report = await importFile(target, {
        format: 'ios-strings',
        content: strings,
        stringsdict,
        ...intoKind(kind),
        ...(variantId && { variantId }),
      });
      expect(report.skipped).toEqual([]);
      expect(await file(target, kind, params('ios-strings'))).toBe(strings);
      expect(await file(target, kind, params('ios-stringsdict'))).toBe(stringsdict);
    }
  });

  it('ios-stringsdict alone brings the plural texts', async () => {
    const target = await createWorkspace(ctx);
    await emptyLike(target);
    const stringsdict = await file(source, kind, { format: 'ios-stringsdict' });
    const report = await importFile(target, { format: 'ios-stringsdict', content: stringsdict, ...intoKind(kind) });
    expect(report.created).toEqual(['cart']);
    expect(await file(target, kind, { format: 'ios-stringsdict' })).toBe(stringsdict);
  });
});

describe('rich text', () => {
  it.each(JSON_FORMATS)('%s exported with richText=html comes back with richText=html', async (format) => {
    const target = await createWorkspace(ctx);
    await emptyLike(target);
    const params = { format, richText: 'html' };
    const exported = await file(source, 'textItems', params);
    await importFile(target, { format, content: exported, projectId: 'web', richText: 'html' });
    expect(await file(target, 'textItems', params)).toBe(exported);
  });
});
