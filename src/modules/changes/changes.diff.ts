import type { Change, ChangeAction, ChangeKind, FieldChanges } from './changes.types.js';

/**
 * Pure helpers that turn a record's fields before and after a write into a change. Fields are
 * named as in the record's GET response; values compare as JSON.
 */
export type Fields = Readonly<Record<string, unknown>>;

/** Whether two values are equal as JSON. */
const same = (a: unknown, b: unknown) => a === b || (sameJson(a, b) ?? JSON.stringify(a) === JSON.stringify(b));

const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * `same` without serialising the values fields hold (strings, numbers, lists, plural forms),
 * compared as their JSON would be: lists item by item, objects key by key in order. Undefined
 * when a value needs JSON's own rules (an undefined member, a non-finite number, a class
 * instance): the caller then compares the JSON.
 */
function sameJson(a: unknown, b: unknown): boolean | undefined {
  if (a === b) return true;
  const kindA = jsonKind(a);
  const kindB = jsonKind(b);
  if (kindA === undefined || kindB === undefined) return undefined;
  if (kindA !== kindB || kindA === 'scalar') return false;
  if (kindA === 'array') {
    const listA = a as unknown[];
    const listB = b as unknown[];
    if (listA.length !== listB.length) return false;
    for (let i = 0; i < listA.length; i += 1) {
      const equal = sameJson(listA[i], listB[i]);
      if (equal !== true) return equal;
    }
    return true;
  }
  const objectA = a as Record<string, unknown>;
  const objectB = b as Record<string, unknown>;
  const keys = Object.keys(objectA);
  const keysB = Object.keys(objectB);
  // A member JSON leaves out (undefined, a function): let JSON decide.
  if (keys.some((k) => leftOut(objectA[k])) || keysB.some((k) => leftOut(objectB[k]))) return undefined;
  if (keys.length !== keysB.length) return false;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    if (key !== keysB[i]) return false;
    const equal = sameJson(objectA[key], objectB[key]);
    if (equal !== true) return equal;
  }
  return true;
}

const leftOut = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** A JSON value's kind, or undefined for what JSON writes by its own rules. */
function jsonKind(value: unknown): 'scalar' | 'array' | 'object' | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return 'scalar';
    case 'number':
      return Number.isFinite(value) ? 'scalar' : undefined;
    case 'object':
      if (value === null) return 'scalar';
      if (Array.isArray(value)) return 'array';
      return isPlainObject(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
        ? 'object'
        : undefined;
    default:
      return undefined;
  }
}

/** Moving between containers: a change of only these fields is `moved`. */
const PLACEMENT = new Set(['folderId', 'blockId']);

/** The fields that differ, each with its value before and after (absent values are null). */
export function diffFields(before: Fields | null, after: Fields | null): FieldChanges {
  const changes: FieldChanges = {};
  // A create or a delete lists every field: no comparison, and no set of names (a batch create
  // diffs thousands of records).
  if (before === null || after === null) {
    for (const name in before ?? after ?? {}) {
      changes[name] = { before: before?.[name] ?? null, after: after?.[name] ?? null };
    }
    return changes;
  }
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const name of names) {
    const was = before[name] ?? null;
    const is = after[name] ?? null;
    if (same(was, is)) continue;
    changes[name] = { before: was, after: is };
  }
  return changes;
}

function actionOf(before: Fields | null, after: Fields | null, fields: FieldChanges): ChangeAction {
  if (before === null) return 'created';
  if (after === null) return 'deleted';
  const names = Object.keys(fields);
  if (names.includes('developerId')) return 'renamed';
  if (names.length > 0 && names.every((name) => PLACEMENT.has(name))) return 'moved';
  return 'updated';
}

export interface RecordIdentity {
  kind: ChangeKind;
  ref: string;
  developerId: string;
  variantId?: string | null;
}

/**
 * The change of one record, or null when nothing changed. `before` null is a create, `after` null
 * a delete; a changed `developerId` is a rename; only `folderId`/`blockId` is a move. `developerId`
 * names the record after the write (before it, for a delete).
 */
export function changeOf(
  identity: RecordIdentity,
  before: Fields | null,
  after: Fields | null,
  action?: ChangeAction,
): Change | null {
  if (before === null || after === null) return wholeChange(identity, before, after, action);
  const fields = diffFields(before, after);
  if (Object.keys(fields).length === 0 && action === undefined) return null;
  return {
    kind: identity.kind,
    ref: identity.ref,
    developerId: identity.developerId,
    variantId: identity.variantId ?? null,
    action: action ?? actionOf(before, after, fields),
    fields,
  };
}

/**
 * The values of the records created (`after`) or deleted (`before`), on the change that lists
 * them: the log stores them as they are, and a create's `fields`, one `{ before, after }` per field,
 * are only built if something reads them (a webhook's events). A batch create of 1,000 texts
 * made some 40,000 of those objects for nothing. The getter is one function shared by every such
 * change (an accessor written in an object literal would be a new function per change).
 */
const WHOLE = Symbol('whole');
interface Whole {
  before: Fields | null;
  after: Fields | null;
  fields?: FieldChanges;
}
type WholeChange = Change & { [WHOLE]: Whole };

export const valuesOfWholeChange = (change: Change): Whole | undefined => (change as Partial<WholeChange>)[WHOLE];

function wholeFields(this: WholeChange): FieldChanges {
  const whole = this[WHOLE];
  whole.fields ??= diffFields(whole.before, whole.after);
  return whole.fields;
}

function wholeChange(
  identity: RecordIdentity,
  before: Fields | null,
  after: Fields | null,
  action: ChangeAction | undefined,
): Change {
  const change = {
    kind: identity.kind,
    ref: identity.ref,
    developerId: identity.developerId,
    variantId: identity.variantId ?? null,
    action: action ?? (before === null ? 'created' : 'deleted'),
    [WHOLE]: { before, after },
  };
  Object.defineProperty(change, 'fields', { get: wholeFields, enumerable: true, configurable: true });
  return change as WholeChange;
}

/** `changeOf` over many records, dropping the ones that did not change. */
export function changesOf(
  items: Iterable<{ identity: RecordIdentity; before: Fields | null; after: Fields | null }>,
): Change[] {
  const out: Change[] = [];
  for (const item of items) {
    const change = changeOf(item.identity, item.before, item.after);
    if (change) out.push(change);
  }
  return out;
}
