import type {
  DocumentHeader,
  ExportDocument,
  ExportEntry,
  ExportOptions,
  ExportPlural,
  ExportVariable,
} from '../../formats/types.js';
import { eachPlaceholder } from '../../text/placeholders.js';
import {
  baseOwner,
  inCldrOrder,
  type Owner,
  type OwnerSelection,
  type PluralText,
  type TextEntity,
  type TextSelection,
  type VariantValue,
} from '../texts/index.js';
import type { Variable } from '../variables/variables.service.js';
import type { Variant } from '../variants/variants.service.js';

/** What a variant export does with a text that has no value of the variant. */
export type VariantFallback = 'none' | 'base';

/**
 * What an export writes of each selected text (pure): its base text, or the exported variant's
 * value. A variant export holds the texts that have a value of the variant, as GET /textItems
 * returns the variant's records; with `fallback` `base`, a text without one exports its base text
 * instead. A text whose variant value exists but fails the status or assignee filter is left out
 * either way, as its variant record would be in GET /textItems.
 */
export function exportEntries(
  variant: Variant | null,
  variables: readonly Variable[],
  fallback: VariantFallback = 'none',
): (entity: TextEntity, chosen: OwnerSelection) => ExportEntry | null {
  const byId = new Map<number, ExportVariable>(
    variables.map((v, creationIndex) => [v.id, { name: v.name, type: v.type, data: v.data, creationIndex }]),
  );
  return (entity, chosen) => {
    const owner = variant ? variantOwner(entity, variant.id, chosen.variants, fallback) : baseOwner(entity);
    return owner ? toEntry(entity, owner, byId) : null;
  };
}

/** A document's head: the locale, the variant and the options. */
export function documentHeader(variant: Variant | null, locale: string, options: ExportOptions): DocumentHeader {
  return {
    locale,
    variant: variant ? { id: variant.developerId, name: variant.name, description: variant.description } : null,
    options,
  };
}

/** The exporter input of a whole selection (pure), for callers that hold every text (the v0/v1 API). */
export function buildDocument(
  selection: TextSelection,
  variant: Variant | null,
  variables: readonly Variable[],
  locale: string,
  options: ExportOptions,
  fallback: VariantFallback = 'none',
): ExportDocument {
  const entryOf = exportEntries(variant, variables, fallback);
  const entries: ExportEntry[] = [];
  for (const entity of selection.entities) {
    const chosen = selection.select(entity);
    const entry = chosen && entryOf(entity, chosen);
    if (entry) entries.push(entry);
  }
  return { ...documentHeader(variant, locale, options), entries };
}

/** The variant's value when it passed the filter; for a text without one, base text if asked; else null. */
function variantOwner(
  entity: TextEntity,
  variantId: number,
  kept: readonly VariantValue[],
  fallback: VariantFallback,
): Owner | null {
  const value = entity.variants.find((v) => v.variantId === variantId);
  if (!value) return fallback === 'base' ? baseOwner(entity) : null;
  return kept.includes(value) ? value : null;
}

const toPlural = (p: PluralText): ExportPlural => ({ form: p.form, text: p.text, richText: p.richText ?? null });

function toEntry(entity: TextEntity, owner: Owner, variables: ReadonlyMap<number, ExportVariable>): ExportEntry {
  const stored = owner.plurals;
  const plurals = stored && stored.length > 0 ? inCldrOrder(stored).map(toPlural) : [];
  return {
    id: entity.developerId,
    text: owner.text,
    richText: owner.richText,
    plurals,
    notes: owner.notes,
    variables: entity.variableIds.length === 0 ? [] : usedOf(entity.variableIds, variables, owner.text, plurals),
  };
}

/** The listed variables whose placeholders the record's texts hold, in the order listed. */
function usedOf(
  ids: readonly number[],
  variables: ReadonlyMap<number, ExportVariable>,
  text: string,
  plurals: readonly ExportPlural[],
): ExportVariable[] {
  const names = new Set<string>();
  const add = (name: string) => {
    names.add(name);
  };
  eachPlaceholder(text, add);
  for (const plural of plurals) eachPlaceholder(plural.text, add);
  if (names.size === 0) return [];
  const used: ExportVariable[] = [];
  for (const id of ids) {
    const variable = variables.get(id);
    if (variable !== undefined && names.has(variable.name)) used.push(variable);
  }
  return used;
}
