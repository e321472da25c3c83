import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database, Executor, VariantRow } from '../../db/schema.js';
import { now, writeTransaction } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { slugify, uniqueDeveloperId } from '../shared/developer-id.js';
import * as repo from './variants.repository.js';
import { canonicalLocale, planUpdates, RESERVED_VARIANT_IDS, type VariantUpdate } from './variants.rules.js';

export type { VariantUpdate };

export interface Variant {
  id: string;
  name: string;
  description: string;
  localeCode: string | null;
}

export interface NewVariantInput {
  name: string;
  developerId?: string;
  description?: string;
  localeCode?: string | null;
}

const toVariant = (row: VariantRow): Variant => ({
  id: row.developer_id,
  name: row.name,
  description: row.description,
  localeCode: row.locale_code,
});

/** Every variant of the workspace, in creation order. */
export const listVariants = (executor: Executor, workspaceId: number) => repo.listVariants(executor, workspaceId);

/** The variants among `developerIds` that exist, by developer ID; callers report the missing ones. */
export async function resolveVariants(
  executor: Executor,
  workspaceId: number,
  developerIds: readonly string[],
): Promise<Map<string, VariantRow>> {
  const rows = await repo.findVariantsByDeveloperIds(executor, workspaceId, [...new Set(developerIds)]);
  return new Map(rows.map((row) => [row.developer_id, row]));
}

/**
 * `forceVariantCreation` (contract section 6): the variant, created with its developer ID as its
 * name when it does not exist yet. Runs in the caller's transaction. `field` names the body field
 * in the 400s.
 */
export async function createVariantIfMissing(
  executor: Executor,
  workspaceId: number,
  developerId: string,
  field = 'variantId',
): Promise<VariantRow> {
  const [existing] = await repo.findVariantsByDeveloperIds(executor, workspaceId, [developerId]);
  if (existing) return existing;
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
  return row as VariantRow;
}

export function createVariantsService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  return {
    listVariants,
    resolveVariants,
    createVariantIfMissing,

    list: async (workspaceId: number): Promise<Variant[]> => (await listVariants(db, workspaceId)).map(toVariant),

    /** Creates the variants in order and answers their developer IDs, generated ones included. */
    async create(workspaceId: number, variants: readonly NewVariantInput[]): Promise<string[]> {
      const locales = variants.map((v, i) => {
        if (v.developerId !== undefined && RESERVED_VARIANT_IDS.has(v.developerId)) {
          throw badRequest(`variants[${i}].developerId: '${v.developerId}' is a reserved variant id`);
        }
        return canonicalLocale(v.localeCode, `variants[${i}].localeCode`) ?? null;
      });
      try {
        return await writeTransaction(db, workspaceId, async (trx) => {
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
          await repo.insertVariants(
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
          return developerIds;
        });
      } catch (error) {
        // Writers to one workspace queue on its row, so this is only a safety net for the unforeseen.
        if (isUniqueViolation(error)) throw conflict('Variant already exists in workspace');
        throw error;
      }
    },

    /** All-or-nothing; developer IDs and names may be swapped between variants in one request. */
    async update(workspaceId: number, updates: readonly VariantUpdate[]): Promise<void> {
      await writeTransaction(db, workspaceId, async (trx) => {
        const existing = await repo.listVariants(trx, workspaceId);
        const plans = planUpdates(existing, updates);
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
      });
    },

    /** Removes the variants with their values on every text; style guides scoped to them lose the scope. */
    async remove(workspaceId: number, developerIds: readonly string[]): Promise<void> {
      await writeTransaction(db, workspaceId, async (trx) => {
        const found = await resolveVariants(trx, workspaceId, developerIds);
        const missing = [...new Set(developerIds)].filter((id) => !found.has(id));
        if (missing.length > 0) throw notFound(`Variants not found: ${missing.join(', ')}`);
        await repo.deleteVariants(
          trx,
          workspaceId,
          [...found.values()].map((row) => row.id),
        );
      });
    },
  };
}

export type VariantsService = ReturnType<typeof createVariantsService>;
