import { valuesOfWholeChange } from './changes.diff.js';
import type { Change, ChangeAction, FieldChanges } from './changes.types.js';

/**
 * How changes are stored.
 *
 * A change's fields are `[before, after]`: two objects of the same field names, and either is
 * null when all its values are (a create has no before, a delete no after). A batch create logs
 * thousands of changes whose befores are all null; storing each field as `{ before, after }`
 * doubled the bytes written for the same information. A text's create records the fields it set,
 * and its delete the values it had: a field null on both sides (absent notes, limit or assignee)
 * is not stored, which for a batch of texts was a third of the bytes.
 *
 * One row holds every change a write made to one record: a text's own fields and each of its
 * variant values are separate changes, but they share the row's time, actor, kind, reference and
 * developer ID, so they are written once. A row of one change keeps the plain `[before, after]`
 * (and its own `variant_id` and `action` columns); a row of several stores
 * `{"f":[[variantId, action, before, after], ...]}` in the write's order, and its columns describe
 * the first. A change's id is its row's id times `CHANGES_PER_ROW` plus its place in the row, so
 * ids keep the log's order and a row never holds more than that many changes.
 */
type Values = Record<string, unknown>;
export type StoredFields = [Values | null, Values | null];
type StoredPart = [string | null, ChangeAction, Values | null, Values | null];

export const CHANGES_PER_ROW = 1000;

/** The change id of the `index`-th change of row `rowId`. */
export const changeId = (rowId: number, index: number) => rowId * CHANGES_PER_ROW + index;
export const rowOfChangeId = (id: number) => Math.floor(id / CHANGES_PER_ROW);

function storedPair(change: Change): StoredFields {
  const dropNulls = isText(change);
  const whole = valuesOfWholeChange(change);
  // A create (a delete): the record's values after (before), as the change lists them.
  if (whole && (whole.before === null) !== (whole.after === null)) {
    const values = (whole.after ?? whole.before) as Record<string, unknown>;
    // The texts core lists a text's create (delete) without its null fields: stored as it is.
    if (dropNulls && !hasNull(values)) return whole.before === null ? [null, values] : [values, null];
    const kept: Values = {};
    let allNull = true;
    for (const name in values) {
      const value = values[name] ?? null;
      if (value === null && dropNulls) continue;
      if (value !== null) allNull = false;
      kept[name] = value;
    }
    if (whole.before === null) return [null, kept];
    return allNull ? [null, kept] : [kept, null];
  }
  const before: Values = {};
  const after: Values = {};
  let beforeNull = true;
  let afterNull = true;
  for (const name in change.fields) {
    const { before: was, after: is } = change.fields[name] as FieldChanges[string];
    // Only in a create (a delete): a field the create did not set (the record did not have).
    if (dropNulls && was === null && is === null) continue;
    before[name] = was;
    after[name] = is;
    if (was !== null) beforeNull = false;
    if (is !== null) afterNull = false;
  }
  // The names are read from whichever side is kept, so one side always is.
  return [beforeNull ? null : before, afterNull && !beforeNull ? null : after];
}

function hasNull(values: Values): boolean {
  for (const name in values) if (values[name] === null || values[name] === undefined) return true;
  return false;
}

function fieldsOfPair([before, after]: StoredFields): FieldChanges {
  const fields: FieldChanges = {};
  for (const name of Object.keys(before ?? after ?? {})) {
    fields[name] = { before: before?.[name] ?? null, after: after?.[name] ?? null };
  }
  return fields;
}

/** Texts are logged by the thousand: their creates and deletes leave out fields that are null. */
const isText = (change: Change) => change.kind === 'textItem' || change.kind === 'component';

export function storedFields(change: Change): string {
  return JSON.stringify(storedPair(change));
}

/** A row to write: the changes it holds (one or more, of one record) and its `fields` text. */
export interface StoredRow {
  first: Change;
  count: number;
  fields: string;
}

/**
 * The rows of a write's changes: consecutive changes of one record (a text and its variant
 * values, as the texts core lists them) share a row.
 */
export function storedRows(changes: readonly Change[]): StoredRow[] {
  const rows: StoredRow[] = [];
  let start = 0;
  while (start < changes.length) {
    const first = changes[start] as Change;
    let end = start + 1;
    while (end < changes.length && end - start < CHANGES_PER_ROW && sameRecord(first, changes[end] as Change)) end += 1;
    if (end - start === 1) {
      rows.push({ first, count: 1, fields: storedFields(first) });
    } else {
      const parts: StoredPart[] = [];
      for (let i = start; i < end; i += 1) {
        const change = changes[i] as Change;
        const [before, after] = storedPair(change);
        parts.push([change.variantId, change.action, before, after]);
      }
      rows.push({ first, count: end - start, fields: JSON.stringify({ f: parts }) });
    }
    start = end;
  }
  return rows;
}

const sameRecord = (a: Change, b: Change) => a.ref === b.ref && a.kind === b.kind && a.developerId === b.developerId;

/** The changes one stored row holds, in the write's order. */
export function changesOfRow(row: {
  variant_id: string | null;
  action: string;
  fields: string;
}): { variantId: string | null; action: ChangeAction; fields: FieldChanges }[] {
  const parsed = JSON.parse(row.fields) as StoredFields | { f: StoredPart[] };
  if (Array.isArray(parsed)) {
    return [{ variantId: row.variant_id, action: row.action as ChangeAction, fields: fieldsOfPair(parsed) }];
  }
  return parsed.f.map(([variantId, action, before, after]) => ({
    variantId,
    action,
    fields: fieldsOfPair([before, after]),
  }));
}
