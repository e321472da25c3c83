import { badRequest } from '../http/errors.js';
import { DEVELOPER_ID_PATTERN } from '../http/schemas.js';
import type { BackupRow, IdMap } from './backup-types.js';

/**
 * The checks a restore makes on every row of a file before it is written: each column's type, and
 * the domain's own rules where a module has them (a module's backup service adds those). A value
 * the API would refuse is refused here, so that what a restore writes is what the API could have
 * written, and a message names the table, the record and the field.
 */

/** A problem with a value, or null when it is fine. */
export type Check = (value: unknown) => string | null;

const DEVELOPER_ID = new RegExp(DEVELOPER_ID_PATTERN);

export const isString: Check = (v) => (typeof v === 'string' ? null : 'must be a string');
export const isNonEmpty: Check = (v) =>
  typeof v === 'string' && v.trim() !== '' ? null : 'must be a string that is not empty';
export const isInteger: Check = (v) => (Number.isSafeInteger(v) ? null : 'must be an integer');
export const isBool: Check = (v) => (v === 0 || v === 1 ? null : 'must be 0 or 1');
export const isTime: Check = (v) =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? null : 'must be a date and time (ISO 8601)';
export const isDeveloperId: Check = (v) =>
  typeof v === 'string' && DEVELOPER_ID.test(v) ? null : `must be a developer ID (${DEVELOPER_ID_PATTERN})`;
/** A string of at most `max` characters (counted as code points, as the API's `maxLength` counts them). */
export const maxChars =
  (max: number): Check =>
  (v) => {
    if (typeof v !== 'string') return 'must be a string';
    // A string has at least as many UTF-16 units as code points: only a long one needs counting.
    if (v.length <= max) return null;
    let points = 0;
    for (const _ of v) points += 1;
    return points <= max ? null : `must be at most ${max} characters`;
  };
/** Every check in turn; the first problem found. */
export const allOf =
  (...checks: Check[]): Check =>
  (v) => {
    for (const check of checks) {
      const problem = check(v);
      if (problem !== null) return problem;
    }
    return null;
  };
/** A name as the API takes one: not empty, at most `max` characters (200 for most names). */
export const isName = (max = 200): Check => allOf(isNonEmpty, maxChars(max));
export const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.join(', ')}`;
export const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || v === undefined ? null : check(v);

/** A JSON column: text that parses, and whose value passes `shape`. */
export const isJson =
  (what: string, shape: (value: unknown) => boolean): Check =>
  (v) => {
    if (typeof v !== 'string') return `must be ${what} (as JSON text)`;
    try {
      return shape(JSON.parse(v)) ? null : `must be ${what}`;
    } catch {
      return `must be ${what} (not valid JSON)`;
    }
  };
export const isStringArray = (value: unknown) => Array.isArray(value) && value.every((s) => typeof s === 'string');
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A table's columns and their checks. */
export type Columns = Record<string, Check>;

/** A row of the file: its table, its place in that table's list, and the row. */
export interface FileRow {
  table: string;
  index: number;
  row: BackupRow;
}

/** Where a row is: `texts[17] (id 17)`. */
export const rowName = ({ table, index, row }: FileRow) =>
  row.id === undefined ? `${table}[${index}]` : `${table}[${index}] (id ${String(row.id)})`;

/** The 400 for a row's field: `file: texts[17] (id 17).tags: must be a JSON array of strings`. */
export function rowError(at: FileRow, field: string, problem: string) {
  return badRequest(`file: ${rowName(at)}.${field}: ${problem}`);
}

/** Checks every column of a row; throws the 400 naming the first bad one. */
export function checkColumns(at: FileRow, columns: Columns): void {
  for (const column in columns) {
    const problem = (columns[column] as Check)(at.row[column]);
    if (problem !== null) throw rowError(at, column, problem);
  }
}

/**
 * A reference to a row of `target` that must be in the file (before this row): null is allowed
 * when `optional`.
 */
export function checkReference(
  at: FileRow,
  column: string,
  target: { name: string; ids: IdMap | ReadonlySet<number> },
  optional: boolean,
): void {
  const value = at.row[column];
  if ((value === null || value === undefined) && optional) return;
  if (!Number.isSafeInteger(value)) throw rowError(at, column, 'must be an integer');
  if (!target.ids.has(value as number)) {
    throw rowError(at, column, `refers to ${target.name} ${String(value)}, which the file does not hold`);
  }
}
