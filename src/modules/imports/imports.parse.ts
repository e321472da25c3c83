/**
 * The parse of an import's file as a pure function of plain data, so that it can run on a worker
 * thread (`imports.parse-worker.ts`): a file of 200,000 keys takes the parsers over a second,
 * which on the event loop would hold up every other request.
 */
import {
  type ImportFormat,
  type ParsedFile,
  type ParseOptions,
  parseCsv,
  parsers,
} from '../../formats/parsers/index.js';
import { badRequest } from '../../http/errors.js';
import { findUnstorableText } from '../../http/storable-text.js';
import type { CsvColumns } from './imports.types.js';

export interface ParseJob {
  format: ImportFormat;
  content: string;
  stringsdict?: string;
  options: ParseOptions;
  /** csv: the column mapping, and the locale of each variant column (by variant developer ID). */
  csv?: { columns: CsvColumns; locales: Record<string, string> };
}

/** A column of the file: the texts of the base (`target` null) or of one variant. */
export interface ParsedColumn {
  target: string | null;
  file: ParsedFile;
}

/** Parses the job's file; a malformed file throws `MalformedFile`, an unstorable text a 400. */
export function runParseJob(job: ParseJob): ParsedColumn[] {
  if (job.format === 'csv') {
    const { columns, locales } = job.csv!;
    return parseCsv(job.content, columns, (target) =>
      target === null ? job.options.locale : (locales[target] ?? job.options.locale),
    );
  }
  const file = parsers[job.format](job.content, job.options, job.stringsdict);
  // The file's own escapes (`\u0000` in JSON, `&#0;` in XML) get past the check of the request's text.
  for (const entry of file.entries) {
    const problem = findUnstorableText({ key: entry.key, ...entry.value }, 'value');
    if (problem) throw badRequest(`content: ${entry.at}: ${problem}`);
  }
  return [{ target: null, file }];
}
