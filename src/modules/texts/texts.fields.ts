import type { Executor } from '../../db/schema.js';
import type { Change, ChangeKind } from '../changes/index.js';
import { changeOf, type Fields, type RecordIdentity } from '../changes/index.js';
import type { WriteContext } from './content.js';
import { inCldrOrder } from './plurals.js';
import type { Component, PluralText, TextEntity, TextItem, TextKind, TextValue, VariantValue } from './texts.types.js';

/**
 * Components and text items as the change log records them: fields named as in their GET
 * records, references as developer IDs. Pure, given the lookups.
 */

/** Developer IDs (or emails, names) of the rows a text refers to, by row id. */
export interface FieldLookups {
  variants: ReadonlyMap<number, string>;
  variables: ReadonlyMap<number, string>;
  users: ReadonlyMap<number, string>;
  folders: ReadonlyMap<number, string>;
  blocks: ReadonlyMap<number, string>;
  /** Projects and bases. */
  containers: ReadonlyMap<number, string>;
  /** Other texts: the base text items and components that text items point at. */
  texts: ReadonlyMap<number, string>;
}

/**
 * The lookups of texts a create has just inserted, from what planning them resolved: the variants
 * and variables the request named, the workspace's users, and the kind's own references (`own`:
 * the folders of components; the project, its blocks and its base's items for text items). A new
 * text refers to nothing else, so a batch create reads nothing more for its change log (the
 * workspace lookups were six reads and the referenced texts a seventh, per batch).
 */
export function lookupsOfCreate(
  context: Pick<WriteContext, 'variants' | 'variables' | 'userIds'>,
  own: Partial<Pick<FieldLookups, 'folders' | 'blocks' | 'containers' | 'texts'>>,
): FieldLookups {
  const variants = new Map<number, string>();
  for (const variant of context.variants.values()) variants.set(variant.id, variant.developerId);
  const variables = new Map<number, string>();
  for (const variable of context.variables.values()) variables.set(variable.id, variable.name);
  const users = new Map<number, string>();
  for (const [email, id] of context.userIds) users.set(id, email);
  const none = new Map<number, string>();
  return {
    variants,
    variables,
    users,
    folders: own.folders ?? none,
    blocks: own.blocks ?? none,
    containers: own.containers ?? none,
    texts: own.texts ?? none,
  };
}

/** Loads the lookups of one workspace; wired from the modules that own those tables. */
export type FieldLookupsLoader = (executor: Executor, workspaceId: number) => Promise<Omit<FieldLookups, 'texts'>>;

export const changeKindOf = (kind: TextKind): ChangeKind => (kind === 'component' ? 'component' : 'textItem');

/** The change log's identity of a text: stable across its life, shared by its variant values. */
export const textRef = (kind: TextKind, rowId: number) => `${changeKindOf(kind)}:${rowId}`;

const pluralsField = (plurals: readonly PluralText[] | null) =>
  plurals && plurals.length > 0
    ? inCldrOrder(plurals).map((p) =>
        p.richText ? { form: p.form, text: p.text, richText: p.richText } : { form: p.form, text: p.text },
      )
    : null;

/** The names of listed variables (one gone since is left out). */
function variableNames(ids: readonly number[], lookups: FieldLookups): string[] {
  const names: string[] = [];
  for (const id of ids) {
    const name = lookups.variables.get(id);
    if (name !== undefined) names.push(name);
  }
  return names;
}

const ref = (map: ReadonlyMap<number, string>, id: number | null) => (id === null ? null : (map.get(id) ?? null));

/**
 * One field of a record as the log shows it: `value` reads the entity's own value (a row id, a
 * stored list), `shown` turns it into the field (a developer ID, plurals in CLDR order). The
 * entity's value is the field's identity: when a write leaves it the very same (`===`, as an
 * update leaves every property it does not set), the field did not change and is not computed.
 */
interface Field<E> {
  name: string;
  value: (entity: E) => unknown;
  shown?: (value: never, lookups: FieldLookups) => unknown;
}

const field = <E, V>(
  name: string,
  value: (entity: E) => V,
  shown?: (value: V, lookups: FieldLookups) => unknown,
): Field<E> => ({ name, value, shown: shown as Field<E>['shown'] });

/** The content fields of the base text and of every variant value, in the order records list them. */
const content = {
  text: field('text', (e: TextValue) => e.text),
  richText: field('richText', (e: TextValue) => e.richText),
  plurals: field('plurals', (e: TextValue) => e.plurals, pluralsField),
  notes: field('notes', (e: TextValue) => e.notes),
  characterLimit: field('characterLimit', (e: TextValue) => e.characterLimit),
  status: field('status', (e: TextValue) => e.status),
  assignee: field(
    'assignee',
    (e: TextValue) => e.assigneeId,
    (id, l) => ref(l.users, id),
  ),
};

/** What components and text items both have, after their own fields. */
const COMMON_FIELDS: readonly Field<TextEntity>[] = [
  content.text,
  content.richText,
  content.plurals,
  content.notes,
  content.characterLimit,
  field('tags', (e: TextEntity) => e.tags),
  field('integrated', (e: TextEntity) => e.integrated),
  field(
    'variableIds',
    (e: TextEntity) => e.variableIds,
    (ids, l) => variableNames(ids, l),
  ),
  content.status,
  content.assignee,
];

const COMPONENT_FIELDS: readonly Field<Component>[] = [
  field('name', (e: Component) => e.name),
  field(
    'folderId',
    (e: Component) => e.folderId,
    (id, l) => ref(l.folders, id),
  ),
  ...COMMON_FIELDS,
];

const TEXT_ITEM_FIELDS: readonly Field<TextItem>[] = [
  field(
    'projectId',
    (e: TextItem) => e.projectId,
    (id, l) => ref(l.containers, id),
  ),
  field(
    'blockId',
    (e: TextItem) => e.blockId,
    (id, l) => ref(l.blocks, id),
  ),
  field(
    'baseTextItemId',
    (e: TextItem) => e.baseTextItemId,
    (id, l) => ref(l.texts, id),
  ),
  field(
    'componentId',
    (e: TextItem) => e.componentId,
    (id, l) => ref(l.texts, id),
  ),
  ...COMMON_FIELDS,
];

/** A variant value's own fields (tags and variables are the base's). */
const VARIANT_FIELDS: readonly Field<VariantValue>[] = [
  content.text,
  content.richText,
  content.plurals,
  content.notes,
  content.characterLimit,
  content.status,
  content.assignee,
];

const shownValue = <E>(f: Field<E>, entity: E, lookups: FieldLookups): unknown => {
  const value = f.value(entity);
  return f.shown ? f.shown(value as never, lookups) : value;
};

/**
 * What a create or a delete lists: every field the record has, leaving out the null ones (no
 * limit, no assignee, no block), as the change log stores a text's create and delete. Built
 * without them, the values are stored as they are, with no copy per record.
 */
function presentFields<E>(fields: readonly Field<E>[], entity: E, lookups: FieldLookups): Fields {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = shownValue(f, entity, lookups);
    if (value !== null && value !== undefined) out[f.name] = value;
  }
  return out;
}

/**
 * The change of one record between two states (null: not there). An update compares only the
 * fields whose entity values are not the very same; `changeOf` decides, so the change is what a
 * comparison of every field would give.
 */
function recordChange<E>(
  identity: RecordIdentity,
  fields: readonly Field<E>[],
  before: E | null,
  after: E | null,
  lookups: FieldLookups,
): Change | null {
  if (before === null || after === null) {
    return changeOf(
      identity,
      before && presentFields(fields, before, lookups),
      after && presentFields(fields, after, lookups),
    );
  }
  if (before === after) return null;
  let was: Record<string, unknown> | null = null;
  let is: Record<string, unknown> | null = null;
  // A new developer ID: the record's own row, so its history goes on under the new ID (`renamed`).
  const renamed = (before as { developerId?: string }).developerId;
  const renamedTo = (after as { developerId?: string }).developerId;
  if (renamed !== renamedTo) {
    was = { developerId: renamed };
    is = { developerId: renamedTo };
  }
  for (const f of fields) {
    if (f.value(before) === f.value(after)) continue;
    was ??= {};
    is ??= {};
    was[f.name] = shownValue(f, before, lookups);
    is[f.name] = shownValue(f, after, lookups);
  }
  if (!was || !is) return null;
  const change = changeOf(identity, was, is);
  // Only where the record lives changed (another project, block or folder): `moved`.
  if (change?.action === 'updated' && Object.keys(change.fields).every((name) => PLACEMENT.has(name))) {
    change.action = 'moved';
  }
  return change;
}

const PLACEMENT = new Set(['projectId', 'blockId', 'folderId']);

const fieldsOf = (kind: TextKind) =>
  (kind === 'component' ? COMPONENT_FIELDS : TEXT_ITEM_FIELDS) as readonly Field<TextEntity>[];

/**
 * The changes of one text between two states (null: not there): its base record, then one per
 * variant value that appeared, changed or went (in the order of `before`, then the new ones).
 * Unchanged parts record nothing; an update that leaves a variant value the same object (every
 * value but the one a PATCH targets) is not compared at all.
 */
export function textChanges(before: TextEntity | null, after: TextEntity | null, lookups: FieldLookups): Change[] {
  const entity = (after ?? before) as TextEntity;
  const base: RecordIdentity = {
    kind: changeKindOf(entity.kind),
    ref: textRef(entity.kind, entity.id),
    developerId: entity.developerId,
    variantId: null,
  };
  const out: Change[] = [];
  const baseChange = recordChange(base, fieldsOf(entity.kind), before, after, lookups);
  if (baseChange) out.push(baseChange);
  const was = before?.variants ?? [];
  const is = after?.variants ?? [];
  for (const old of was) {
    const now = is.find((v) => v.variantId === old.variantId) ?? null;
    if (old === now) continue;
    const change = recordChange(variantIdentity(base, old, lookups), VARIANT_FIELDS, old, now, lookups);
    if (change) out.push(change);
  }
  for (const now of is) {
    if (was.length > 0 && was.some((v) => v.variantId === now.variantId)) continue;
    const change = recordChange(variantIdentity(base, now, lookups), VARIANT_FIELDS, null, now, lookups);
    if (change) out.push(change);
  }
  return out;
}

/** A variant value's record: its text's identity, with the variant's developer ID. */
const variantIdentity = (text: RecordIdentity, value: VariantValue, lookups: FieldLookups): RecordIdentity => ({
  kind: text.kind,
  ref: text.ref,
  developerId: text.developerId,
  variantId: lookups.variants.get(value.variantId) ?? null,
});

/** The text row ids a set of texts points at (base text items, components), for `lookups.texts`. */
export function referencedTextIds(entities: readonly TextEntity[]): number[] {
  const ids = new Set<number>();
  for (const entity of entities) {
    if (entity.kind !== 'text_item') continue;
    if (entity.baseTextItemId !== null) ids.add(entity.baseTextItemId);
    if (entity.componentId !== null) ids.add(entity.componentId);
  }
  return [...ids];
}
