/**
 * The parse of an import's file as a pure function of plain data, so that it can run on a worker
 * thread (`imports.parse-worker.ts`): a file of 200,000 keys takes the parsers over a second,
 * which on the event loop would hold up every other request.
 */
import {
  type ImportFormat,
  type ParsedFile,
  type ParsedText,
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

/** A column as the import plans it: whose texts, and what the format says of plural forms. */
export interface ColumnHead {
  target: string | null;
  variantName: string | null;
  carriesPlurals: boolean;
}

/** An entry the parser could not hold, by column (index into the heads). */
export interface ParserSkip {
  column: number;
  key: string;
  reason: string;
}

/** One key of the file with its value in each column that has it (column: index into the heads). */
export interface FileKey {
  key: string;
  values: Array<{ column: number; value: ParsedText }>;
}

/** The parsed file's heads and the entries it could not hold, before its keys. */
export interface ParsedHead {
  columns: ColumnHead[];
  skipped: ParserSkip[];
}

/**
 * Keys handed to the import per slice: what the import reads, plans, checks and writes at a
 * time, so that memory holds one slice of the file's texts, never the whole file's.
 */
export const SLICE_KEYS = 500;

/**
 * The parse as the import reads it: the heads and the skipped entries, then the keys (each with
 * its values in every column, in the order of the first column that has it), a slice at a time.
 * Each slice's entries are let go of as it is handed out.
 */
export function sliceParse(columns: ParsedColumn[]): { head: ParsedHead; slices: Generator<FileKey[]> } {
  const head: ParsedHead = {
    columns: columns.map(({ target, file }) => ({
      target,
      variantName: file.variantName,
      carriesPlurals: file.carriesPlurals,
    })),
    skipped: columns.flatMap(({ file }, column) => file.skipped.map(({ key, reason }) => ({ column, key, reason }))),
  };
  if (columns.length === 1 && distinctKeys(columns[0]!.file)) return { head, slices: singleColumn(columns[0]!.file) };
  const keys = new Map<string, FileKey>();
  columns.forEach(({ file }, column) => {
    for (const entry of file.entries) {
      const found = keys.get(entry.key);
      if (found) found.values.push({ column, value: entry.value });
      else keys.set(entry.key, { key: entry.key, values: [{ column, value: entry.value }] });
    }
    file.entries = [];
  });
  function* slices(): Generator<FileKey[]> {
    let slice: FileKey[] = [];
    for (const [key, fileKey] of keys) {
      slice.push(fileKey);
      keys.delete(key);
      if (slice.length === SLICE_KEYS) {
        yield slice;
        slice = [];
      }
    }
    if (slice.length > 0) yield slice;
  }
  return { head, slices: slices() };
}

/** One column's keys in slices, straight from its entries (the keys of one column are distinct). */
function* singleColumn(file: ParsedFile): Generator<FileKey[]> {
  const entries = file.entries;
  file.entries = [];
  for (let start = 0; start < entries.length; start += SLICE_KEYS) {
    const slice: FileKey[] = [];
    for (let index = start; index < Math.min(entries.length, start + SLICE_KEYS); index++) {
      const { key, value } = entries[index]!;
      slice.push({ key, values: [{ column: 0, value }] });
    }
    (entries as unknown[]).fill(undefined, start, start + SLICE_KEYS);
    yield slice;
  }
}

function distinctKeys(file: ParsedFile): boolean {
  const keys = new Set<string>();
  for (const { key } of file.entries) {
    if (keys.has(key)) return false;
    keys.add(key);
  }
  return true;
}
