import { describe, expect, it } from 'vitest';
import { exporters } from '../../src/formats/index.js';
import { FORMATS } from '../../src/formats/types.js';
import { document, entry, TRICKY_TEXTS } from './fixtures.js';
import { cart } from './json-cases.js';

const CONTENT_TYPES: Record<string, string> = {
  json_icu: 'application/json; charset=utf-8',
  json_i18next: 'application/json; charset=utf-8',
  json_vue_i18n: 'application/json; charset=utf-8',
  arb: 'application/json; charset=utf-8',
  'ios-strings': 'text/plain; charset=utf-8',
  'ios-stringsdict': 'text/xml; charset=utf-8',
  android: 'text/xml; charset=utf-8',
};

describe('exporters registry', () => {
  it('has an exporter for every format, answering the content type the format documents', () => {
    expect(Object.keys(exporters).sort()).toEqual([...FORMATS].sort());
    const records = [...TRICKY_TEXTS.map((text, index) => entry(`t${index}`, text)), cart()];
    for (const format of FORMATS) {
      for (const doc of [document([]), document(records, { locale: 'ar' })]) {
        expect(exporters[format](doc).contentType, format).toBe(CONTENT_TYPES[format]);
      }
    }
  });

  it('gives JSON formats a body that is one JSON object', () => {
    for (const format of ['json_icu', 'json_i18next', 'json_vue_i18n', 'arb'] as const) {
      const body = exporters[format](document([cart()])).body;
      expect(JSON.parse(body)).toBeTypeOf('object');
      expect(body.endsWith('}\n')).toBe(true);
    }
  });
});
