import type { Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import type { Change } from '../changes/index.js';
import { changeOf } from '../changes/index.js';
import { guideIdentity } from './styleguides.changes.js';
import { loadGuides, type VariantNames } from './styleguides.load.js';
import { indexGuides } from './styleguides.records.js';
import * as repo from './styleguides.repository.js';
import { DEFAULT_SECTIONS, defaultSectionName, type SectionInput } from './styleguides.sections.js';

/**
 * What other modules ask of the style guides inside their own transactions: the guide a new
 * workspace starts with, and the scope guides lose when their variant is deleted.
 */

export const BUILTIN_ID = 'default';

export const sectionRows = (styleguideId: number, sections: readonly SectionInput[]) =>
  sections.map((s, position) => ({
    styleguide_id: styleguideId,
    section_id: s.sectionId,
    kind: s.kind,
    name: s.name ?? defaultSectionName(s.kind),
    position,
  }));

/**
 * A new workspace's built-in guide, in the transaction that creates the workspace. Part of the
 * workspace's creation rather than a change to it, so the change log does not record it.
 */
export async function seedWorkspace(executor: Executor, workspaceId: number): Promise<void> {
  const id = await repo.insertGuide(executor, workspaceId, {
    developer_id: BUILTIN_ID,
    name: 'Default style guide',
    description: 'The built-in style guide of the workspace',
    enabled_by_default: 1,
    variant_id: null,
    created_at: now(),
  });
  await repo.insertSections(executor, sectionRows(id, DEFAULT_SECTIONS));
}

/**
 * For the deletion of variants, inside its transaction and before the variants go: the guides
 * scoped to any of them lose their scope. Answers one change per guide (`variantId` to null), for
 * the deletion's change log.
 */
export async function clearVariantScopes(
  trx: Executor,
  workspaceId: number,
  variantRowIds: readonly number[],
  variants: VariantNames,
): Promise<Change[]> {
  const scoped = [...indexGuides(await loadGuides(trx, workspaceId, variants)).values()]
    .map((state) => state.row)
    .filter((row) => row.variant_id !== null && variantRowIds.includes(row.variant_id));
  for (const row of scoped) await repo.updateGuide(trx, workspaceId, row.id, { variant_id: null });
  return scoped.map(
    (row) => changeOf(guideIdentity(row), { variantId: row.variant_developer_id }, { variantId: null }) as Change,
  );
}
