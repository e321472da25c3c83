import type { NewTextRow, TextRow, TextVariantRow } from '../../db/schema.texts.js';
import { parseStoredPlurals, serializePlurals } from './plurals.js';
import type { NewText, TextEntity, TextFieldChanges, VariantValue } from './texts.types.js';

/**
 * Rows to domain types and back: the only place that knows both. Every read of the core turns
 * rows into `TextEntity` here, every write turns domain values into columns here.
 */

export interface TextVariableRow {
  text_id: number;
  variable_id: number;
}

/** The columns of `texts` a read needs: all but the workspace and the timestamps. */
export type TextColumns = Omit<TextRow, 'workspace_id' | 'created_at' | 'updated_at'>;

export const toVariantValue = (row: TextVariantRow): VariantValue => ({
  variantId: row.variant_id,
  text: row.text,
  richText: row.rich_text,
  plurals: parseStoredPlurals(row.plurals),
  status: row.status,
  assigneeId: row.assignee_id,
  notes: row.notes,
  characterLimit: row.character_limit,
  textVersion: row.text_version,
});

/**
 * A `texts` row as a component or text item, without its variant values and variables yet. A
 * row of the content columns only (`TextQuery.contentOnly`) leaves the others at defaults.
 * Written out for each kind rather than spread from a common part: a page of a large read
 * makes thousands of these.
 */
export function toEntity(row: TextColumns): TextEntity {
  const plurals = parseStoredPlurals(row.plurals);
  const tags = row.tags === '[]' ? [] : (JSON.parse(row.tags) as string[]);
  const revision = row.revision === undefined ? 0 : Number(row.revision);
  if (row.kind === 'component') {
    return {
      kind: 'component',
      id: row.id,
      developerId: row.developer_id,
      text: row.text,
      richText: row.rich_text,
      plurals,
      notes: row.notes,
      characterLimit: row.character_limit ?? null,
      status: row.status,
      assigneeId: row.assignee_id,
      tags,
      integrated: row.integrated === 1,
      variants: [],
      variableIds: [],
      revision,
      textVersion: row.text_version ?? 0,
      name: row.name ?? '',
      folderId: row.folder_id,
    };
  }
  return {
    kind: 'text_item',
    id: row.id,
    developerId: row.developer_id,
    text: row.text,
    richText: row.rich_text,
    plurals,
    notes: row.notes,
    characterLimit: row.character_limit ?? null,
    status: row.status,
    assigneeId: row.assignee_id,
    tags,
    integrated: row.integrated === 1,
    variants: [],
    variableIds: [],
    revision,
    textVersion: row.text_version ?? 0,
    projectId: row.project_id as number,
    blockId: row.block_id ?? null,
    position: row.position ?? 0,
    baseTextItemId: row.base_text_item_id ?? null,
    componentId: row.component_id,
  };
}

/** Groups the rows of three queries into entities, in memory, with maps rather than per-row queries. */
export function assembleEntities(
  texts: readonly TextColumns[],
  variants: readonly TextVariantRow[],
  variables: readonly TextVariableRow[],
): TextEntity[] {
  const byId = new Map<number, TextEntity>();
  const entities = texts.map((row) => {
    const entity = toEntity(row);
    byId.set(row.id, entity);
    return entity;
  });
  for (const value of variants) byId.get(value.text_id)?.variants.push(toVariantValue(value));
  for (const link of variables) byId.get(link.text_id)?.variableIds.push(link.variable_id);
  // The rows mostly come in order already: sort only the lists that are not.
  for (const entity of entities) {
    const { variants: values, variableIds } = entity;
    if (values.length > 1 && !ascending(values, (value) => value.variantId)) {
      values.sort((a, b) => a.variantId - b.variantId);
    }
    if (variableIds.length > 1 && !ascending(variableIds, (id) => id)) variableIds.sort((a, b) => a - b);
  }
  return entities;
}

function ascending<T>(list: readonly T[], key: (item: T) => number): boolean {
  for (let index = 1; index < list.length; index++) {
    if (key(list[index - 1] as T) > key(list[index] as T)) return false;
  }
  return true;
}

/**
 * The `text_variants` row of a variant value; a value without its own `textVersion` is being
 * written now, against the base text's version `baseVersion`.
 */
export const variantValueRow = (textId: number, value: VariantValue, baseVersion = 0) => ({
  text_id: textId,
  variant_id: value.variantId,
  text: value.text,
  rich_text: value.richText,
  plurals: serializePlurals(value.plurals),
  status: value.status,
  assignee_id: value.assigneeId,
  notes: value.notes,
  character_limit: value.characterLimit,
  text_version: value.textVersion ?? baseVersion,
});

export type TextChanges = Partial<Omit<TextRow, 'id' | 'workspace_id' | 'kind' | 'created_at'>>;

/** The columns of changed fields (only those given). */
export function textColumns(changes: TextFieldChanges): TextChanges {
  const out: TextChanges = {};
  const set = <K extends keyof TextChanges>(column: K, value: TextChanges[K] | undefined) => {
    if (value !== undefined) out[column] = value;
  };
  set('developer_id', changes.developerId);
  set('text', changes.text);
  set('rich_text', changes.richText);
  if (changes.plurals !== undefined) out.plurals = serializePlurals(changes.plurals);
  set('notes', changes.notes);
  set('character_limit', changes.characterLimit);
  set('status', changes.status);
  set('assignee_id', changes.assigneeId);
  if (changes.tags !== undefined) out.tags = JSON.stringify(changes.tags);
  if (changes.integrated !== undefined) out.integrated = changes.integrated ? 1 : 0;
  set('name', changes.name);
  set('folder_id', changes.folderId);
  set('project_id', changes.projectId);
  set('block_id', changes.blockId);
  set('position', changes.position);
  set('base_text_item_id', changes.baseTextItemId);
  set('component_id', changes.componentId);
  set('text_version', changes.textVersion);
  return out;
}

/** The `texts` row of a new text; every row has the same columns, for multi-row inserts. */
export function newTextRow(workspaceId: number, text: NewText, at: string): NewTextRow {
  const component = text.kind === 'component' ? text : null;
  const item = text.kind === 'text_item' ? text : null;
  return {
    workspace_id: workspaceId,
    kind: text.kind,
    developer_id: text.developerId,
    name: component?.name ?? null,
    folder_id: component?.folderId ?? null,
    project_id: item?.projectId ?? null,
    block_id: item?.blockId ?? null,
    base_text_item_id: item?.baseTextItemId ?? null,
    component_id: item?.componentId ?? null,
    position: item?.position ?? 0,
    text: text.text,
    rich_text: text.richText,
    plurals: serializePlurals(text.plurals),
    notes: text.notes,
    tags: JSON.stringify(text.tags),
    status: text.status,
    assignee_id: text.assigneeId,
    character_limit: text.characterLimit,
    integrated: text.integrated ? 1 : 0,
    text_version: text.textVersion ?? 0,
    created_at: at,
    updated_at: at,
  };
}
