import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type {
  Database,
  Executor,
  StyleguideRulesTable,
  StyleguideSectionsTable,
  StyleguidesTable,
  StyleguideTermsTable,
} from '../../db/schema.js';

export type GuideRow = Selectable<StyleguidesTable> & { variant_developer_id: string | null };
export type SectionRow = Selectable<StyleguideSectionsTable>;
export type RuleRow = Selectable<StyleguideRulesTable>;
export type TermRow = Selectable<StyleguideTermsTable>;

export interface WorkspaceGuides<G = GuideRow> {
  guides: G[];
  sections: SectionRow[];
  rules: RuleRow[];
  terms: TermRow[];
}

/**
 * Every guide of the workspace with its sections, rules and terms: four queries, in creation
 * order. A guide's variant is its row id here: the variants module owns that table and names it
 * (styleguides.load.ts).
 */
export async function loadGuideRows(
  db: Executor,
  workspaceId: number,
): Promise<WorkspaceGuides<Selectable<StyleguidesTable>>> {
  const ofWorkspace = (eb: ExpressionBuilder<Database, 'styleguides'>) =>
    eb('styleguides.workspace_id', '=', workspaceId);
  const [guides, sections, rules, terms] = await Promise.all([
    db.selectFrom('styleguides').selectAll().where(ofWorkspace).orderBy('styleguides.id').execute(),
    db
      .selectFrom('styleguide_sections')
      .innerJoin('styleguides', 'styleguides.id', 'styleguide_sections.styleguide_id')
      .selectAll('styleguide_sections')
      .where(ofWorkspace)
      .orderBy('styleguide_sections.position')
      .orderBy('styleguide_sections.id')
      .execute(),
    db
      .selectFrom('styleguide_rules')
      .innerJoin('styleguides', 'styleguides.id', 'styleguide_rules.styleguide_id')
      .selectAll('styleguide_rules')
      .where(ofWorkspace)
      .orderBy('styleguide_rules.position')
      .orderBy('styleguide_rules.id')
      .execute(),
    db
      .selectFrom('styleguide_terms')
      .innerJoin('styleguides', 'styleguides.id', 'styleguide_terms.styleguide_id')
      .selectAll('styleguide_terms')
      .where(ofWorkspace)
      .orderBy('styleguide_terms.position')
      .orderBy('styleguide_terms.id')
      .execute(),
  ]);
  return { guides, sections, rules, terms };
}

export type NewGuide = Omit<Insertable<StyleguidesTable>, 'id' | 'workspace_id'>;
export type NewSection = Omit<Insertable<StyleguideSectionsTable>, 'id'>;

export async function insertGuide(db: Executor, workspaceId: number, guide: NewGuide): Promise<number> {
  const row = await db
    .insertInto('styleguides')
    .values({ ...guide, workspace_id: workspaceId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertSections(db: Executor, sections: readonly NewSection[]): Promise<SectionRow[]> {
  if (sections.length === 0) return [];
  return db
    .insertInto('styleguide_sections')
    .values([...sections])
    .returningAll()
    .execute();
}

export type GuideChanges = Partial<Pick<GuideRow, 'name' | 'description' | 'enabled_by_default' | 'variant_id'>>;

export async function updateGuide(db: Executor, workspaceId: number, id: number, changes: GuideChanges) {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('styleguides')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function updateSection(db: Executor, id: number, changes: Pick<SectionRow, 'kind' | 'name' | 'position'>) {
  await db.updateTable('styleguide_sections').set(changes).where('id', '=', id).execute();
}

/** Moves the rules or terms of the sections `from` of one guide into section `to`. */
export async function moveEntries(
  db: Executor,
  table: 'styleguide_rules' | 'styleguide_terms',
  styleguideId: number,
  move: { from: readonly number[]; to: number },
): Promise<void> {
  const { from, to } = move;
  if (from.length === 0) return;
  await db
    .updateTable(table)
    .set({ section_id: to })
    .where('styleguide_id', '=', styleguideId)
    .where('section_id', 'in', from)
    .execute();
}

export async function deleteSections(db: Executor, styleguideId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('styleguide_sections').where('styleguide_id', '=', styleguideId).where('id', 'in', ids).execute();
}

/** Sections, rules and terms go with their guide, by the foreign keys. */
export async function deleteGuides(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('styleguides').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
}
