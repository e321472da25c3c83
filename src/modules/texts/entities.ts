import type { StoredPlural, TextRow, TextVariantRow } from '../../db/schema.js';
import { parseStoredPlurals } from './plurals.js';

/**
 * Components and text items as the shared core sees them: the `texts` row with its JSON parsed,
 * its variant values and its listed variables. Rows never leave the texts and components modules.
 */
export type TextKind = TextRow['kind'];

export interface VariantValue {
  /** Row id of the variant. */
  variantId: number;
  text: string;
  richText: string | null;
  plurals: StoredPlural[] | null;
  status: string;
  assigneeId: number | null;
  notes: string;
  characterLimit: number | null;
}

export interface TextEntity {
  row: TextRow;
  plurals: StoredPlural[] | null;
  tags: string[];
  /** In variant creation order (variant row id). */
  variants: VariantValue[];
  /** Row ids of the listed variables, in variable creation order. */
  variableIds: number[];
}

export interface TextVariableRow {
  text_id: number;
  variable_id: number;
}

export const toVariantValue = (row: TextVariantRow): VariantValue => ({
  variantId: row.variant_id,
  text: row.text,
  richText: row.rich_text,
  plurals: parseStoredPlurals(row.plurals),
  status: row.status,
  assigneeId: row.assignee_id,
  notes: row.notes,
  characterLimit: row.character_limit,
});

/** Groups the rows of three queries into entities, in memory, with maps rather than per-row queries. */
export function assembleEntities(
  texts: readonly TextRow[],
  variants: readonly TextVariantRow[],
  variables: readonly TextVariableRow[],
): TextEntity[] {
  const byId = new Map<number, TextEntity>();
  const entities = texts.map((row) => {
    const entity: TextEntity = {
      row,
      plurals: parseStoredPlurals(row.plurals),
      tags: row.tags === '[]' ? [] : (JSON.parse(row.tags) as string[]),
      variants: [],
      variableIds: [],
    };
    byId.set(row.id, entity);
    return entity;
  });
  for (const value of variants) byId.get(value.text_id)?.variants.push(toVariantValue(value));
  for (const link of variables) byId.get(link.text_id)?.variableIds.push(link.variable_id);
  for (const entity of entities) {
    if (entity.variants.length > 1) entity.variants.sort((a, b) => a.variantId - b.variantId);
    if (entity.variableIds.length > 1) entity.variableIds.sort((a, b) => a - b);
  }
  return entities;
}

/** The `text_variants` row of a variant value. */
export const variantValueRow = (textId: number, value: VariantValue) => ({
  text_id: textId,
  variant_id: value.variantId,
  text: value.text,
  rich_text: value.richText,
  plurals: value.plurals === null || value.plurals.length === 0 ? null : JSON.stringify(value.plurals),
  status: value.status,
  assignee_id: value.assigneeId,
  notes: value.notes,
  character_limit: value.characterLimit,
});
