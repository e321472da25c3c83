import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { slugify, uniqueDeveloperId } from '../../shared/developer-id.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { WritePath, WriteScope } from '../changes/index.js';
import type { VariantsService } from '../variants/variants.service.js';
import { createEntriesService } from './entries.service.js';
import { createGlossary } from './glossary.service.js';
import { createLintService, type LintDeps } from './lint.service.js';
import { createGuideWriter, type Guides } from './styleguides.changes.js';
import { loadGuides, type VariantNames } from './styleguides.load.js';
import { indexGuides, type StyleguideRecord, toStyleguideRecord } from './styleguides.records.js';
import * as repo from './styleguides.repository.js';
import type { NewStyleguideInput, StyleguideUpdate } from './styleguides.schemas.js';
import { checkSections, DEFAULT_SECTIONS, planSections, type SectionInput } from './styleguides.sections.js';
import { BUILTIN_ID, clearVariantScopes, sectionRows, seedWorkspace } from './styleguides.workspace.js';

export type { NewStyleguideInput, StyleguideUpdate };

export const styleguideNotFound = (developerId: string) =>
  notFound(`Style guide with developer ID ${developerId} not found`);

/**
 * What other modules' writes ask of the style guides inside their own transactions: the guide a
 * new workspace starts with, and the scopes guides lose when their variant is deleted. It needs
 * only the variants' names, so it is built before the accounts and variants services that use it
 * (the style guides service itself reads through components and text items, built later).
 */
export function createStyleguideHooks(variants: VariantNames) {
  return {
    seedWorkspace,
    clearVariantScopes: (trx: Executor, workspaceId: number, variantRowIds: readonly number[]) =>
      clearVariantScopes(trx, workspaceId, variantRowIds, variants),
  };
}

export type StyleguideHooks = ReturnType<typeof createStyleguideHooks>;

export interface StyleguidesDeps extends LintDeps {
  db: Kysely<Database>;
  writes: WritePath;
  variants: Pick<VariantsService, 'resolveVariants' | 'listVariants'>;
}

const DUPLICATE = 'Style guide already exists in workspace';

export function createStyleguidesService(deps: StyleguidesDeps) {
  const { db } = deps;
  const write = createGuideWriter(deps.writes, deps.variants);

  /** The row id of the variant a guide is scoped to; only variants with a locale code can scope one. */
  async function scopeVariant(executor: Executor, workspaceId: number, variantId: string | null, field: string) {
    if (variantId === null) return null;
    const row = (await deps.variants.resolveVariants(executor, workspaceId, [variantId])).get(variantId);
    if (!row) throw badRequest(`${field}: Variant with id ${variantId} not found`);
    if (row.localeCode === null) {
      throw badRequest(
        `${field}: variant ${variantId} has no locale code; only variants with a locale code can scope a style guide`,
      );
    }
    return row.id;
  }

  return {
    async list(workspaceId: number): Promise<StyleguideRecord[]> {
      return [...indexGuides(await loadGuides(db, workspaceId, deps.variants)).values()].map(toStyleguideRecord);
    },

    seedWorkspace,
    clearVariantScopes: (trx: Executor, workspaceId: number, variantRowIds: readonly number[]) =>
      clearVariantScopes(trx, workspaceId, variantRowIds, deps.variants),

    /** Creates the guides in order and answers their developer IDs, generated ones included. */
    async create(scope: WriteScope, inputs: readonly NewStyleguideInput[]): Promise<string[]> {
      const { workspaceId } = scope;
      const explicit = new Set<string>();
      assertDistinctIds(
        inputs.map((input) => input.developerId),
        (index) => `styleguides[${index}].developerId`,
      );
      inputs.forEach((input, i) => {
        const id = input.developerId;
        if (input.sections) checkSections(input.sections, `styleguides[${i}].sections`);
        if (id === undefined) return;
        if (id === BUILTIN_ID) {
          throw badRequest(`styleguides[${i}].developerId: '${BUILTIN_ID}' is reserved for the built-in style guide`);
        }
        explicit.add(id);
      });
      const created = async (trx: Executor, existing: Guides) => {
        for (const id of explicit) {
          if (existing.has(id)) throw conflict(`Style guide with developer ID ${id} already exists in workspace`);
        }
        const variantRowIds: (number | null)[] = [];
        for (const [i, input] of inputs.entries()) {
          variantRowIds.push(
            await scopeVariant(trx, workspaceId, input.variantId ?? null, `styleguides[${i}].variantId`),
          );
        }
        const taken = new Set([...existing.keys(), ...explicit, BUILTIN_ID]);
        const developerIds = inputs.map((input) => input.developerId ?? uniqueDeveloperId(slugify(input.name), taken));
        const createdAt = now();
        for (const [i, input] of inputs.entries()) {
          const id = await repo.insertGuide(trx, workspaceId, {
            developer_id: developerIds[i] as string,
            name: input.name,
            description: input.description ?? '',
            enabled_by_default: input.enabledByDefault ? 1 : 0,
            variant_id: variantRowIds[i] ?? null,
            created_at: createdAt,
          });
          await repo.insertSections(trx, sectionRows(id, input.sections ?? DEFAULT_SECTIONS));
        }
        return developerIds;
      };
      return write(scope, created, DUPLICATE);
    },

    /** PATCH /styleguides: one guide, only the fields given change. */
    async update(scope: WriteScope, input: StyleguideUpdate): Promise<void> {
      const { workspaceId } = scope;
      if (input.developerId === BUILTIN_ID) {
        const field = (['name', 'description', 'variantId', 'sections'] as const).find((f) => input[f] !== undefined);
        if (field) {
          throw badRequest(
            `${field}: only enabledByDefault can be updated on the built-in style guide '${BUILTIN_ID}'`,
          );
        }
      }
      const updated = async (trx: Executor, guides: Guides) => {
        const state = guides.get(input.developerId);
        if (!state) throw styleguideNotFound(input.developerId);
        if (input.sections) checkSections(input.sections, 'sections');
        const variantRowId =
          input.variantId === undefined
            ? undefined
            : await scopeVariant(trx, workspaceId, input.variantId, 'variantId');
        await repo.updateGuide(trx, workspaceId, state.row.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.description === undefined ? {} : { description: input.description }),
          ...(input.enabledByDefault === undefined ? {} : { enabled_by_default: input.enabledByDefault ? 1 : 0 }),
          ...(variantRowId === undefined ? {} : { variant_id: variantRowId }),
        });
        if (input.sections) await replaceSections(trx, state.row.id, state.sections, input.sections);
      };
      await write(scope, updated, DUPLICATE);
    },

    /** The built-in guide stays; the others go with their sections, rules and terms. */
    async remove(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
      const builtin = developerIds.indexOf(BUILTIN_ID);
      if (builtin >= 0) {
        throw badRequest(`developerIds[${builtin}]: the built-in style guide '${BUILTIN_ID}' cannot be deleted`);
      }
      assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
      const removed = async (trx: Executor, existing: Guides) => {
        const missing = developerIds.find((id) => !existing.has(id));
        if (missing !== undefined) throw styleguideNotFound(missing);
        const rowIds = developerIds.map((id) => existing.get(id)?.row.id as number);
        await repo.deleteGuides(trx, scope.workspaceId, rowIds);
      };
      await write(scope, removed, DUPLICATE);
    },

    ...createEntriesService({ write }),
    lint: createLintService(deps),
    glossary: createGlossary(deps),
  };
}

async function replaceSections(
  trx: Executor,
  styleguideId: number,
  existing: repo.SectionRow[],
  sections: readonly SectionInput[],
): Promise<void> {
  const plan = planSections(existing, sections);
  for (const { row, kind, name, position } of plan.kept)
    await repo.updateSection(trx, row.id, { kind, name, position });
  const added = await repo.insertSections(
    trx,
    plan.added.map((s) => ({ ...s, styleguide_id: styleguideId })),
  );
  const rowIdOf = new Map([...existing, ...added].map((row) => [row.section_id, row.id]));
  const { rules, wordlist } = plan.moves;
  await repo.moveEntries(trx, 'styleguide_rules', styleguideId, {
    from: rules.from,
    to: rowIdOf.get(rules.to) as number,
  });
  await repo.moveEntries(trx, 'styleguide_terms', styleguideId, {
    from: wordlist.from,
    to: rowIdOf.get(wordlist.to) as number,
  });
  await repo.deleteSections(
    trx,
    styleguideId,
    plan.removed.map((row) => row.id),
  );
}

export type StyleguidesService = ReturnType<typeof createStyleguidesService>;
