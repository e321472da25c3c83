import type { FieldChanges } from './changes.types.js';

/**
 * How a change's fields are stored: `[before, after]`, two objects of the same field names, and
 * either is null when all its values are (a create has no before, a delete no after). A batch
 * create logs thousands of changes whose befores are all null; storing each field as
 * `{ before, after }` doubled the bytes written for the same information.
 */
type Values = Record<string, unknown>;
export type StoredFields = [Values | null, Values | null];

export function storedFields(fields: FieldChanges): string {
  const before: Values = {};
  const after: Values = {};
  let beforeNull = true;
  let afterNull = true;
  for (const name in fields) {
    const { before: was, after: is } = fields[name] as FieldChanges[string];
    before[name] = was;
    after[name] = is;
    if (was !== null) beforeNull = false;
    if (is !== null) afterNull = false;
  }
  // The names are read from whichever side is kept, so one side always is.
  return JSON.stringify([beforeNull ? null : before, afterNull && !beforeNull ? null : after]);
}

export function fieldsOfStored(text: string): FieldChanges {
  const [before, after] = JSON.parse(text) as StoredFields;
  const fields: FieldChanges = {};
  for (const name of Object.keys(before ?? after ?? {})) {
    fields[name] = { before: before?.[name] ?? null, after: after?.[name] ?? null };
  }
  return fields;
}
