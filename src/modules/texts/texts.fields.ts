import type { Executor } from '../../db/schema.js';
import type { Change, ChangeKind } from '../changes/index.js';
import { changeOf, type Fields } from '../changes/index.js';
import { inCldrOrder } from './plurals.js';
import type { PluralText, TextEntity, TextKind, VariantValue } from './texts.types.js';

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

const pluralsField = (plurals: readonly PluralText[] | null) =>
  plurals && plurals.length > 0
    ? inCldrOrder(plurals).map((p) =>
        p.richText ? { form: p.form, text: p.text, richText: p.richText } : { form: p.form, text: p.text },
      )
    : null;

const ref = (map: ReadonlyMap<number, string>, id: number | null) => (id === null ? null : (map.get(id) ?? null));

/** The base text's fields. */
export function baseFields(entity: TextEntity, lookups: FieldLookups): Fields {
  const common = {
    text: entity.text,
    richText: entity.richText,
    plurals: pluralsField(entity.plurals),
    notes: entity.notes,
    characterLimit: entity.characterLimit,
    tags: entity.tags,
    integrated: entity.integrated,
    variableIds: entity.variableIds.flatMap((id) => lookups.variables.get(id) ?? []),
    status: entity.status,
    assignee: ref(lookups.users, entity.assigneeId),
  };
  if (entity.kind === 'component') {
    return { name: entity.name, folderId: ref(lookups.folders, entity.folderId), ...common };
  }
  return {
    projectId: ref(lookups.containers, entity.projectId),
    blockId: ref(lookups.blocks, entity.blockId),
    baseTextItemId: ref(lookups.texts, entity.baseTextItemId),
    componentId: ref(lookups.texts, entity.componentId),
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
    kind: changeKindOf(entity.kind),
    ref: textRef(entity.kind, entity.id),
    developerId: entity.developerId,
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
  for (const entity of entities) {
    if (entity.kind !== 'text_item') continue;
    if (entity.baseTextItemId !== null) ids.add(entity.baseTextItemId);
    if (entity.componentId !== null) ids.add(entity.componentId);
  }
  return [...ids];
}
