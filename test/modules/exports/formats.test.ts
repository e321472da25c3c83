import { describe, expect, it } from 'vitest';
import { FORMATS, type FormatName, wholeFile } from '../../../src/formats/types.js';
import { fileFormats } from '../../../src/modules/exports/exports.service.js';
import { document, entry, TRICKY_TEXTS } from '../../formats/fixtures.js';
import { cart } from '../../formats/json-cases.js';
import { CONTENT_TYPES } from './helpers.js';

/** The whole file of a format, as the v0/v1 API writes it. */
const exporter = (format: FormatName) => wholeFile(fileFormats[format]);

describe('the formats of the exports', () => {
  it('has a writer for every format, answering the content type the format documents', () => {
    expect(Object.keys(fileFormats).sort()).toEqual([...FORMATS].sort());
    const records = [...TRICKY_TEXTS.map((text, index) => entry(`t${index}`, text)), cart()];
    for (const format of FORMATS) {
      for (const doc of [document([]), document(records, { locale: 'ar' })]) {
        expect(exporter(format)(doc).contentType, format).toBe(CONTENT_TYPES[format]);
      }
    }
  });

  it('gives JSON formats a body that is one JSON object', () => {
    for (const format of ['json_icu', 'json_i18next', 'json_vue_i18n', 'arb'] as const) {
      const body = exporter(format)(document([cart()])).body;
      expect(JSON.parse(body)).toBeTypeOf('object');
      expect(body.endsWith('}\n')).toBe(true);
    }
  });
});
