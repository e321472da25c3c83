import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { slugify, uniqueDeveloperId } from '../../shared/developer-id.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import { canonicalLocale } from '../../shared/locale.js';
import type { Change, WritePath, WriteScope } from '../changes/index.js';
import { changesOf } from '../changes/index.js';
import type { TextCascades } from '../texts/index.js';
import { type EnsuredVariant, ensureVariant } from './variants.force.js';
import {
  toVariant,
  toVariantRecord,
  updatedRow,
  type VariantRecord,
  variantFields,
  variantIdentity,
} from './variants.records.js';
import * as repo from './variants.repository.js';
import { planVariantUpdates, RESERVED_VARIANT_IDS, type VariantUpdate } from './variants.rules.js';
import type { NewVariantInput } from './variants.schemas.js';
import type { Variant } from './variants.types.js';

type VariantRow = repo.VariantRow;

export type { EnsuredVariant, NewVariantInput, Variant, VariantRecord, VariantUpdate };
export { ensureVariant };

/** Every variant of the workspace, in creation order. */
export const listVariants = async (executor: Executor, workspaceId: number): Promise<Variant[]> =>
  (await repo.listVariants(executor, workspaceId)).map(toVariant);

/** The variants among `developerIds` that exist, by developer ID; callers report the missing ones. */
export async function resolveVariants(
  executor: Executor,
  workspaceId: number,
  developerIds: readonly string[],
): Promise<Map<string, Variant>> {
  const rows = await repo.findVariantsByDeveloperIds(executor, workspaceId, [...new Set(developerIds)]);
  return new Map(rows.map((row) => [row.developer_id, toVariant(row)]));
}

export interface VariantsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  /** Removing a deleted variant's values from every text (the texts module answers). */
  variantValues: Pick<TextCascades, 'removeVariantValues'>;
  /** Unscoping the style guides scoped to a deleted variant (the style guides module answers). */
  styleguideScopes: {
    clearVariantScopes(trx: Executor, workspaceId: number, variantIds: readonly number[]): Promise<Change[]>;
  };
}

export function createVariantsService(deps: VariantsDeps) {
  const { db, writes, variantValues } = deps;

  return {
    listVariants,
    resolveVariants,
    ensureVariant,

    list: async (workspaceId: number): Promise<VariantRecord[]> =>
      (await listVariants(db, workspaceId)).map(toVariantRecord),

    /** Creates the variants in order and answers their developer IDs, generated ones included. */
    async create(scope: WriteScope, variants: readonly NewVariantInput[]): Promise<string[]> {
      const { workspaceId } = scope;
      assertDistinctIds(
        variants.map((variant) => variant.developerId),
        (index) => `variants[${index}].developerId`,
      );
      const locales = variants.map((v, i) => {
        if (v.developerId !== undefined && RESERVED_VARIANT_IDS.has(v.developerId)) {
          throw badRequest(`variants[${i}].developerId: '${v.developerId}' is a reserved variant id`);
        }
        return canonicalLocale(v.localeCode, `variants[${i}].localeCode`) ?? null;
      });
      try {
        return await writes.write(scope, async (trx) => {
          const existing = await repo.listVariants(trx, workspaceId);
          const names = new Set(existing.map((row) => row.name));
          const explicit = new Set(existing.map((row) => row.developer_id));
          for (const { developerId, name } of variants) {
            if (developerId !== undefined) {
              if (explicit.has(developerId)) {
                throw conflict(`Variant with developer ID ${developerId} already exists in workspace`);
              }
              explicit.add(developerId);
            }
            if (names.has(name)) throw conflict(`Variant with name ${name} already exists in workspace`);
            names.add(name);
          }
          // Generated ids avoid every explicit id of the request, also those of later elements.
          const taken = new Set([...explicit, ...RESERVED_VARIANT_IDS]);
          const developerIds = variants.map((v) => v.developerId ?? uniqueDeveloperId(slugify(v.name), taken));
          const rows = await repo.insertVariants(
            trx,
            workspaceId,
            variants.map((v, i) => ({
              developer_id: developerIds[i] as string,
              name: v.name,
              description: v.description ?? '',
              locale_code: locales[i] ?? null,
            })),
            now(),
          );
          // Matched by developer ID: neither database promises RETURNING rows in insertion order.
          const byId = new Map(rows.map((row) => [row.developer_id, row]));
          const created = developerIds.map((id) => byId.get(id) as VariantRow);
          const changes = changesOf(
            created.map((row) => ({ identity: variantIdentity(row), before: null, after: variantFields(row) })),
          );
          return { changes, result: developerIds };
        });
      } catch (error) {
        // Writers to one workspace queue on its row, so this is only a safety net for the unforeseen.
        if (isUniqueViolation(error)) throw conflict('Variant already exists in workspace');
        throw error;
      }
    },

    /**
     * All-or-nothing; developer IDs and names may be swapped between variants in one request. A
     * `newDeveloperId` is recorded as a rename of the variant.
     */
    async update(scope: WriteScope, updates: readonly VariantUpdate[]): Promise<void> {
      const { workspaceId } = scope;
      await writes.write(scope, async (trx) => {
        const plans = planVariantUpdates(await repo.listVariants(trx, workspaceId), updates);
        const changes = changesOf(
          plans.map(({ row, changes }) => {
            const after = updatedRow(row, changes);
            return { identity: variantIdentity(after), before: variantFields(row), after: variantFields(after) };
          }),
        );
        return {
          changes,
          apply: async (trx) => {
            // Moving every changed id and name aside first keeps the unique constraints quiet mid-swap.
            // A parked id starts with '_', which no developer ID can; a parked name carries a UUID.
            const parked = plans.filter((p) => p.changes.developer_id !== undefined || p.changes.name !== undefined);
            for (const { row, changes } of parked) {
              const stamp = `_parked-${row.id}-${randomUUID()}`;
              await repo.updateVariant(trx, workspaceId, row.id, {
                ...(changes.developer_id === undefined ? {} : { developer_id: stamp }),
                ...(changes.name === undefined ? {} : { name: stamp }),
              });
            }
            for (const { row, changes } of plans) await repo.updateVariant(trx, workspaceId, row.id, changes);
          },
          result: undefined,
        };
      });
    },

    /**
     * Removes the variants with their values on every text; style guides scoped to them lose the
     * scope. The history records each variant and each component or text item that lost a value.
     */
    async remove(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
      await writes.write(scope, async (trx) => {
        const found = new Map(
          (await repo.findVariantsByDeveloperIds(trx, workspaceId, [...new Set(developerIds)])).map((row) => [
            row.developer_id,
            row,
          ]),
        );
        const missing = developerIds.filter((id) => !found.has(id));
        if (missing.length > 0) throw notFound(`Variants not found: ${missing.join(', ')}`);
        const rows = developerIds.map((id) => found.get(id) as VariantRow);
        const ids = rows.map((row) => row.id);
        // Before the variants go, so that the text changes still name them.
        const texts = await variantValues.removeVariantValues(trx, workspaceId, ids);
        const guides = await deps.styleguideScopes.clearVariantScopes(trx, workspaceId, ids);
        const variants = changesOf(
          rows.map((row) => ({ identity: variantIdentity(row), before: variantFields(row), after: null })),
        );
        return {
          changes: [...variants, ...texts, ...guides],
          apply: (trx) => repo.deleteVariants(trx, workspaceId, ids),
          result: undefined,
        };
      });
    },
  };
}

export type VariantsService = ReturnType<typeof createVariantsService>;
