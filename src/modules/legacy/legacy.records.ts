import type { LegacyText } from '../../formats/legacy/index.js';
import type { ExportDocument } from '../../formats/types.js';
import type { OwnerSelection, TextEntity, TextSelection } from '../texts/index.js';

/**
 * The selection rules of the v0 and v1 fetches (pure), over a selection of the shared texts core
 * made with the variant in its filter and no status:
 * - `variant`: the variant's value, and only the texts that have one;
 * - `status`: only the texts whose shown value is in that status, so a variant fetch matches
 *   the variant value's own status (the v2 fetch asks both base and variant to match);
 * - `keep`: the fetch's own scope (a folder, the instances of a project, no instances).
 */
export function legacySelection(
  selection: TextSelection,
  rules: { variantId: number | null; status: string | null; keep?: (entity: TextEntity) => boolean },
): TextSelection {
  const { variantId, status, keep } = rules;
  const select = (entity: TextEntity): OwnerSelection | null => {
    if (keep && !keep(entity)) return null;
    const chosen = selection.select(entity);
    if (!chosen) return null;
    if (variantId === null) {
      return status === null || entity.status === status ? { base: true, variants: [] } : null;
    }
    const value = chosen.variants.find((v) => v.variantId === variantId);
    if (!value || (status !== null && value.status !== status)) return null;
    return { base: false, variants: [value] };
  };
  return { entities: selection.entities, select };
}

/**
 * The texts of a legacy body: each exported entry (the text shown, its plurals and the variables
 * it uses) with the status of the value shown, the tags, and the kind's own fields from `extra`.
 */
export function legacyTexts(
  selection: TextSelection,
  document: ExportDocument,
  extra: (entity: TextEntity) => Pick<LegacyText, 'component' | 'block'>,
): LegacyText[] {
  const entries = new Map(document.entries.map((entry) => [entry.id, entry]));
  const texts: LegacyText[] = [];
  for (const entity of selection.entities) {
    const chosen = selection.select(entity);
    const entry = entries.get(entity.developerId);
    if (!chosen || !entry) continue;
    const status = chosen.variants[0]?.status ?? entity.status;
    texts.push({ ...entry, status, tags: entity.tags, ...extra(entity) });
  }
  return texts;
}
