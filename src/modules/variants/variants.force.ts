import type { Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest } from '../../http/errors.js';
import type { Change } from '../changes/index.js';
import { changeOf } from '../changes/index.js';
import { toVariant, variantFields, variantIdentity } from './variants.records.js';
import * as repo from './variants.repository.js';
import { RESERVED_VARIANT_IDS } from './variants.rules.js';
import type { Variant } from './variants.types.js';

/** A variant that `forceVariantCreation` found or made, and the change to record when it made it. */
export interface EnsuredVariant {
  variant: Variant;
  change: Change | null;
}

/**
 * `forceVariantCreation`: the variant, created with its developer ID as its name when it does not
 * exist yet. Runs in the caller's write; the caller adds `change` to the changes it records.
 * `field` names the body field in the 400s.
 */
export async function ensureVariant(
  executor: Executor,
  workspaceId: number,
  developerId: string,
  field = 'variantId',
): Promise<EnsuredVariant> {
  const [existing] = await repo.findVariantsByDeveloperIds(executor, workspaceId, [developerId]);
  if (existing) return { variant: toVariant(existing), change: null };
  if (RESERVED_VARIANT_IDS.has(developerId)) throw badRequest(`${field}: '${developerId}' is a reserved variant id`);
  const named = (await repo.listVariants(executor, workspaceId)).find((row) => row.name === developerId);
  if (named) {
    throw badRequest(
      `${field}: cannot create variant '${developerId}': variant ${named.developer_id} already has the name '${developerId}'`,
    );
  }
  const [row] = await repo.insertVariants(
    executor,
    workspaceId,
    [{ developer_id: developerId, name: developerId, description: '', locale_code: null }],
    now(),
  );
  const created = row as repo.VariantRow;
  return { variant: toVariant(created), change: changeOf(variantIdentity(created), null, variantFields(created)) };
}
