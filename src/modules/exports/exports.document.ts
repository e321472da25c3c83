import type { StoredPlural, VariantRow } from '../../db/schema.js';
import type { ExportDocument, ExportEntry, ExportOptions, ExportVariable } from '../../formats/types.js';
import { usedVariables } from '../../text/placeholders.js';
import type { TextEntity, VariantValue } from '../texts/entities.js';
import { inCldrOrder } from '../texts/plurals.js';
import { baseOwner, type Owner, type TextSelection } from '../texts/records.js';
import type { Variable } from '../variables/variables.service.js';

/**
 * The exporter input of a selection (pure). One entry per selected text: its base text, or the
 * exported variant's value. A text without a value of that variant falls back to its base text
 * (the file stays complete, as apps expect); a text whose variant value exists but fails the
 * status or assignee filter is left out, as its variant record would be in GET /textItems.
 */
export function buildDocument(
  selection: TextSelection,
  variant: VariantRow | null,
  variables: readonly Variable[],
  locale: string,
  options: ExportOptions,
): ExportDocument {
  const byId = new Map<number, ExportVariable>(
    variables.map((v, creationIndex) => [v.id, { name: v.name, type: v.type, data: v.data, creationIndex }]),
  );
  const entries: ExportEntry[] = [];
  for (const entity of selection.entities) {
    const chosen = selection.select(entity);
    if (!chosen) continue;
    const owner = variant ? variantOwner(entity, variant.id, chosen.variants) : baseOwner(entity);
    if (owner) entries.push(toEntry(entity, owner, byId));
  }
  return {
    locale,
    variant: variant ? { id: variant.developer_id, name: variant.name, description: variant.description } : null,
    entries,
    options,
  };
}

/** The variant's value when it passed the filter, base text when the text has none, else null. */
function variantOwner(entity: TextEntity, variantId: number, kept: readonly VariantValue[]): Owner | null {
  const value = entity.variants.find((v) => v.variantId === variantId);
  if (!value) return baseOwner(entity);
  return kept.includes(value) ? value : null;
}

const toPlural = (p: StoredPlural) => ({ form: p.form, text: p.text, richText: p.richText ?? null });

function toEntry(entity: TextEntity, owner: Owner, variables: ReadonlyMap<number, ExportVariable>): ExportEntry {
  const plurals = owner.plurals ? inCldrOrder(owner.plurals).map(toPlural) : [];
  const listed = entity.variableIds.flatMap((id) => variables.get(id) ?? []);
  let used: ExportVariable[] = [];
  if (listed.length > 0) {
    const names = new Set(
      usedVariables(
        [owner.text, ...plurals.map((p) => p.text)],
        listed.map((v) => v.name),
      ),
    );
    used = listed.filter((v) => names.has(v.name));
  }
  return {
    id: entity.row.developer_id,
    text: owner.text,
    richText: owner.richText,
    plurals,
    notes: owner.notes,
    variables: used,
  };
}
