import type { Executor } from '../../db/schema.js';
import type { VariantsService } from '../variants/variants.service.js';
import { loadGuideRows, type WorkspaceGuides } from './styleguides.repository.js';

/** The variants service, which names the variant a guide is scoped to. */
export type VariantNames = Pick<VariantsService, 'listVariants'>;

/** Every guide of the workspace with its sections, rules and terms, each guide with its variant's developer ID. */
export async function loadGuides(
  executor: Executor,
  workspaceId: number,
  variants: VariantNames,
): Promise<WorkspaceGuides> {
  const [loaded, list] = await Promise.all([
    loadGuideRows(executor, workspaceId),
    variants.listVariants(executor, workspaceId),
  ]);
  const names = new Map(list.map((v) => [v.id, v.developerId]));
  const guides = loaded.guides.map((row) => ({
    ...row,
    variant_developer_id: row.variant_id === null ? null : (names.get(row.variant_id) ?? null),
  }));
  return { ...loaded, guides };
}
