import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import type { BackupRow } from '../../db/backup-rows.js';
import { AppError, badRequest } from '../../http/errors.js';
import {
  BACKUP_FORMAT,
  type BackupHeader,
  READABLE_VERSIONS,
  type RowLine,
  TABLES,
  type TableName,
} from './backup.format.js';

/**
 * Reading a backup file as a stream of rows: a version 2 file a line at a time, so a restore
 * holds one line (one row) of it; a version 1 file, one JSON document, is read whole (the limit
 * is the longest string JavaScript holds, about 500 MB of JSON).
 */

/** The longest line read: a version 1 document is one line. */
const MAX_LINE_CHARS = 500 * 1024 * 1024;

const NOT_A_BACKUP = 'file: not a gzip-compressed JSON document';
const TABLE_INDEX = new Map<string, number>(TABLES.map((table, i) => [table, i]));

/** The lines of a gzip file, decompressed and decoded as they are read (no line is joined twice). */
async function* linesOf(path: string): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  let pendingChars = 0;
  const stream = createReadStream(path).pipe(createGunzip());
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const text = decoder.write(chunk);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        pending.push(text.slice(start, nl));
        yield pending.join('');
        pending = [];
        pendingChars = 0;
        start = nl + 1;
      }
      if (start < text.length) {
        pending.push(text.slice(start));
        pendingChars += text.length - start;
        if (pendingChars > MAX_LINE_CHARS) throw badRequest('file: a line is longer than 500 MB');
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // A plain file, or a gzip file cut short or damaged.
    throw badRequest(`${NOT_A_BACKUP} (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    stream.destroy();
  }
  pending.push(decoder.end());
  const last = pending.join('');
  if (last !== '') yield last;
}

function parseJson(line: string, where: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw badRequest(`file: ${where} is not JSON`);
  }
}

export interface OpenBackup {
  header: BackupHeader;
  /** The file's rows, in file order, each with its index in its table. */
  rows: AsyncGenerator<RowLine & { index: number }>;
  /** Closes the file (reading every row closes it too). */
  close(): Promise<unknown>;
}

/** Reads a backup's header and answers it with the rest of the file as a stream of rows. */
export async function openBackup(path: string): Promise<OpenBackup> {
  const lines = linesOf(path);
  let first: IteratorResult<string>;
  try {
    first = await lines.next();
  } catch (error) {
    if (error instanceof AppError && error.message.startsWith(NOT_A_BACKUP)) throw badRequest(NOT_A_BACKUP);
    throw error;
  }
  let head: unknown;
  try {
    head = first.done ? undefined : JSON.parse(first.value);
  } catch {
    await lines.return(undefined);
    throw badRequest(NOT_A_BACKUP);
  }
  const doc = head as Partial<BackupHeader> & { tables?: unknown };
  if (!doc || typeof doc !== 'object' || doc.format !== BACKUP_FORMAT) {
    await lines.return(undefined);
    throw badRequest(`file: not a copydesk workspace backup (format must be '${BACKUP_FORMAT}')`);
  }
  if (!(READABLE_VERSIONS as readonly unknown[]).includes(doc.version)) {
    await lines.return(undefined);
    throw badRequest(
      `file: backup version ${String(doc.version)} is not supported (this server reads ${READABLE_VERSIONS.join(' and ')})`,
    );
  }
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: doc.version as number,
    exportedAt: String(doc.exportedAt),
    workspace: doc.workspace as BackupRow,
  };
  if (doc.version === 1) {
    await lines.return(undefined);
    return { header, rows: versionOneRows(doc.tables), close: async () => undefined };
  }
  return { header, rows: versionTwoRows(lines), close: () => lines.return(undefined) };
}

async function* versionTwoRows(lines: AsyncGenerator<string>): AsyncGenerator<RowLine & { index: number }> {
  let lineNumber = 1;
  let current = 0;
  const counts = new Map<string, number>();
  for await (const text of lines) {
    lineNumber += 1;
    if (text === '') continue;
    const where = `line ${lineNumber}`;
    const line = parseJson(text, where) as Partial<RowLine> | null;
    const order = typeof line?.table === 'string' ? TABLE_INDEX.get(line.table) : undefined;
    if (!line || order === undefined) {
      throw badRequest(`file: ${where}: table must be one of ${TABLES.join(', ')}`);
    }
    if (!line.row || typeof line.row !== 'object' || Array.isArray(line.row)) {
      throw badRequest(`file: ${where}: row must be an object`);
    }
    if (order < current) {
      throw badRequest(
        `file: ${where}: a ${line.table} row after ${TABLES[current]} rows (tables come in the order ${TABLES.join(', ')})`,
      );
    }
    current = order;
    const index = counts.get(line.table as string) ?? 0;
    counts.set(line.table as string, index + 1);
    yield { table: line.table as TableName, row: line.row, index };
  }
}

async function* versionOneRows(tables: unknown): AsyncGenerator<RowLine & { index: number }> {
  if (!tables || typeof tables !== 'object') throw badRequest('file: tables is missing');
  for (const table of TABLES) {
    const rows = (tables as Partial<Record<TableName, unknown>>)[table];
    if (!Array.isArray(rows)) throw badRequest(`file: tables.${table} must be an array`);
    for (let index = 0; index < rows.length; index += 1) {
      const row = rows[index];
      if (!row || typeof row !== 'object' || Array.isArray(row)) {
        throw badRequest(`file: tables.${table}[${index}] must be an object`);
      }
      yield { table, row: row as BackupRow, index };
    }
  }
}
