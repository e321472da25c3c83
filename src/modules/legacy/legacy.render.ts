import type { Readable } from 'node:stream';
import {
  type FullHeader,
  flatBody,
  fullComponentsBody,
  fullProjectBody,
  type LegacyText,
  nestedBody,
  structuredBody,
} from '../../formats/legacy/index.js';
import { type ExportDocument, type ExportOptions, type FormatName, wholeFile } from '../../formats/types.js';
import { fileFormats } from '../exports/exports.service.js';
import type { LegacyFormat } from './legacy.schemas.js';

/**
 * A fetch's answer: a JSON value, a file in another format (XML, `.strings`), or JSON already
 * written (`written`: the bytes, or the chunks of a large body, streamed as they are written; JSON,
 * or the file of a format the v2 exports share).
 */
export type LegacyBody =
  | { json: unknown }
  | { file: string; contentType: string }
  | { written: Buffer | Readable; contentType: string };

/** The formats that are v2 exports under another name: the same files, from the same exporters. */
const EXPORTED: Partial<Record<LegacyFormat, FormatName>> = {
  icu: 'json_icu',
  android: 'android',
  'ios-strings': 'ios-strings',
  'ios-stringsdict': 'ios-stringsdict',
};

/**
 * The exporter options of a legacy fetch. Rich text changes only `structured` and `full`, so the
 * exporters get plain text. `icu` is a map of messages like `flat`, without the `__variant-*`
 * keys; the native files keep their variant comments, as the v2 exports write them.
 */
export function exportOptions(format: LegacyFormat): ExportOptions {
  return {
    richText: null,
    variableOrder: 'default',
    excludeVariantMetadata: format === 'icu',
    includeVariableSummary: false,
  };
}

export interface RenderInput {
  format: LegacyFormat;
  texts: readonly LegacyText[];
  document: ExportDocument;
  richText: boolean;
  /** For `full`: which source the body is of, and whether it is the component library. */
  header: FullHeader & { library: boolean };
}

export function renderBody(input: RenderInput): LegacyBody {
  const { format, texts, document, header } = input;
  const options = { richText: input.richText };
  const exported = EXPORTED[format];
  if (exported) {
    const file = wholeFile(fileFormats[exported])(document);
    return exported === 'json_icu'
      ? { json: JSON.parse(file.body) }
      : { file: file.body, contentType: file.contentType };
  }
  switch (format) {
    case 'flat':
      return { json: flatBody(texts) };
    case 'nested':
      return { json: nestedBody(texts) };
    case 'structured':
      return { json: structuredBody(texts, options) };
    default:
      return {
        json: header.library ? fullComponentsBody(header, texts, options) : fullProjectBody(header, texts, options),
      };
  }
}

/** The value a body takes inside the `projects` map of GET /projects (never a written one). */
export const embedded = (body: LegacyBody): unknown =>
  'json' in body ? body.json : 'file' in body ? body.file : undefined;
