import { badRequest, notFound } from '../../http/errors.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import { canonicalLocale } from '../../shared/locale.js';
import type { VariantChanges, VariantRow } from './variants.repository.js';
import type { VariantUpdate } from './variants.schemas.js';

export type { VariantUpdate };

/** `all` and `base` select records in filters, so no variant may be called that. */
export const RESERVED_VARIANT_IDS: ReadonlySet<string> = new Set(['all', 'base']);

function repeated(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const value of values) (seen.has(value) ? twice : seen).add(value);
  return [...twice];
}

function countOf(values: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

export interface UpdatePlan {
  row: VariantRow;
  changes: VariantChanges;
}

/**
 * Checks a PATCH /variants batch against the workspace's variants as they are, and answers the
 * changes per row. Uniqueness is judged on the state after the whole batch, so swaps are fine.
 */
export function planVariantUpdates(existing: readonly VariantRow[], updates: readonly VariantUpdate[]): UpdatePlan[] {
  const newIds = updates.flatMap((u) => (u.newDeveloperId === undefined ? [] : [u.newDeveloperId]));
  const duplicateNewIds = repeated(newIds);
  if (duplicateNewIds.length > 0) {
    throw badRequest(`Duplicate new developer IDs in request: ${duplicateNewIds.join(', ')}`);
  }
  assertDistinctIds(
    updates.map((u) => u.developerId),
    (index) => `updates[${index}].developerId`,
  );
  const locales = updates.map((u, i) => {
    if (u.newDeveloperId !== undefined && RESERVED_VARIANT_IDS.has(u.newDeveloperId)) {
      throw badRequest(`updates[${i}].newDeveloperId: '${u.newDeveloperId}' is a reserved variant id`);
    }
    return canonicalLocale(u.localeCode, `updates[${i}].localeCode`);
  });

  const byId = new Map(existing.map((row) => [row.developer_id, row]));
  const missing = updates.map((u) => u.developerId).filter((id) => !byId.has(id));
  if (missing.length > 0) throw notFound(`Variants not found: ${missing.join(', ')}`);

  const plans = updates.map((u, i): UpdatePlan => {
    const row = byId.get(u.developerId) as VariantRow;
    const changes: VariantChanges = {};
    if (u.newDeveloperId !== undefined && u.newDeveloperId !== row.developer_id) {
      changes.developer_id = u.newDeveloperId;
    }
    if (u.name !== undefined && u.name !== row.name) changes.name = u.name;
    if (u.description !== undefined) changes.description = u.description;
    const locale = locales[i];
    if (locale !== undefined) changes.locale_code = locale;
    return { row, changes };
  });

  const changed = new Map(plans.map((p) => [p.row.id, p.changes]));
  const finalIds = countOf(existing.map((row) => changed.get(row.id)?.developer_id ?? row.developer_id));
  const finalNames = countOf(existing.map((row) => changed.get(row.id)?.name ?? row.name));
  plans.forEach(({ changes }, i) => {
    if (changes.developer_id !== undefined && (finalIds.get(changes.developer_id) ?? 0) > 1) {
      throw badRequest(
        `updates[${i}].newDeveloperId: a variant with developer ID ${changes.developer_id} already exists`,
      );
    }
    if (changes.name !== undefined && (finalNames.get(changes.name) ?? 0) > 1) {
      throw badRequest(`Variant with name ${changes.name} already exists`);
    }
  });
  return plans;
}
