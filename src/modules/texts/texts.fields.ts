import type { Executor, StoredPlural } from '../../db/schema.js';
import type { Change, ChangeKind } from '../changes/index.js';
import { changeOf, type Fields } from '../changes/index.js';
import type { TextEntity, TextKind, VariantValue } from './entities.js';
import { inCldrOrder } from './plurals.js';

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

/** Loads the lookups of one workspace; wired from the modules that own those tables. */
export type FieldLookupsLoader = (executor: Executor, workspaceId: number) => Promise<Omit<FieldLookups, 'texts'>>;

export const changeKindOf = (kind: TextKind): ChangeKind => (kind === 'component' ? 'component' : 'textItem');

/** The change log's identity of a text: stable across its life, shared by its variant values. */
export const textRef = (kind: TextKind, rowId: number) => `${changeKindOf(kind)}:${rowId}`;

const pluralsField = (plurals: readonly StoredPlural[] | null) =>
  plurals && plurals.length > 0
    ? inCldrOrder(plurals).map((p) =>
        p.richText ? { form: p.form, text: p.text, richText: p.richText } : { form: p.form, text: p.text },
      )
    : null;

const ref = (map: ReadonlyMap<number, string>, id: number | null) => (id === null ? null : (map.get(id) ?? null));

/** The base text's fields. */
export function baseFields(entity: TextEntity, lookups: FieldLookups): Fields {
  const { row } = entity;
  const common = {
    text: row.text,
    richText: row.rich_text,
    plurals: pluralsField(entity.plurals),
    notes: row.notes,
    characterLimit: row.character_limit,
    tags: entity.tags,
    integrated: row.integrated === 1,
    variableIds: entity.variableIds.flatMap((id) => lookups.variables.get(id) ?? []),
    status: row.status,
    assignee: ref(lookups.users, row.assignee_id),
  };
  if (row.kind === 'component') return { name: row.name, folderId: ref(lookups.folders, row.folder_id), ...common };
  return {
    projectId: ref(lookups.containers, row.project_id),
    blockId: ref(lookups.blocks, row.block_id),
    baseTextItemId: ref(lookups.texts, row.base_text_item_id),
    componentId: ref(lookups.texts, row.component_id),
    ...common,
  };
}

/** A variant value's own fields (tags and variables are the base's). */
export function variantFields(value: VariantValue, lookups: FieldLookups): Fields {
  return {
    text: value.text,
    richText: value.richText,
    plurals: pluralsField(value.plurals),
    notes: value.notes,
    characterLimit: value.characterLimit,
    status: value.status,
    assignee: ref(lookups.users, value.assigneeId),
  };
}

/**
 * The changes of one text between two states (null: not there): its base record, then one per
 * variant value that appeared, changed or went. Unchanged parts record nothing.
 */
export function textChanges(before: TextEntity | null, after: TextEntity | null, lookups: FieldLookups): Change[] {
  const entity = (after ?? before) as TextEntity;
  const identity = {
    kind: changeKindOf(entity.row.kind),
    ref: textRef(entity.row.kind, entity.row.id),
    developerId: entity.row.developer_id,
  };
  const out: Change[] = [];
  const base = changeOf(identity, before && baseFields(before, lookups), after && baseFields(after, lookups));
  if (base) out.push(base);
  const was = new Map((before?.variants ?? []).map((v) => [v.variantId, v]));
  const is = new Map((after?.variants ?? []).map((v) => [v.variantId, v]));
  for (const variantId of new Set([...was.keys(), ...is.keys()])) {
    const old = was.get(variantId);
    const now = is.get(variantId);
    const change = changeOf(
      { ...identity, variantId: lookups.variants.get(variantId) ?? null },
      old ? variantFields(old, lookups) : null,
      now ? variantFields(now, lookups) : null,
    );
    if (change) out.push(change);
  }
  return out;
}

/** The text row ids a set of texts points at (base text items, components), for `lookups.texts`. */
export function referencedTextIds(entities: readonly TextEntity[]): number[] {
  const ids = new Set<number>();
  for (const { row } of entities) {
    if (row.base_text_item_id !== null) ids.add(row.base_text_item_id);
    if (row.component_id !== null) ids.add(row.component_id);
  }
  return [...ids];
}
