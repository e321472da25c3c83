import type { Insertable, Updateable } from 'kysely';
import type { Executor, StyleguideRulesTable, StyleguideTermsTable } from '../../db/schema.js';

/**
 * Writes of rules and terms. Their rows are reached through their guide's row id, which the
 * service has already resolved within the workspace.
 */
export type EntryTable = 'styleguide_rules' | 'styleguide_terms';
export type NewRule = Omit<Insertable<StyleguideRulesTable>, 'id'>;
export type NewTerm = Omit<Insertable<StyleguideTermsTable>, 'id'>;
export type RuleChanges = Omit<Updateable<StyleguideRulesTable>, 'id' | 'styleguide_id' | 'developer_id' | 'position'>;
export type TermChanges = Omit<Updateable<StyleguideTermsTable>, 'id' | 'styleguide_id' | 'developer_id' | 'position'>;

export async function insertRules(db: Executor, rules: readonly NewRule[]): Promise<void> {
  if (rules.length > 0)
    await db
      .insertInto('styleguide_rules')
      .values([...rules])
      .execute();
}

export async function insertTerms(db: Executor, terms: readonly NewTerm[]): Promise<void> {
  if (terms.length > 0)
    await db
      .insertInto('styleguide_terms')
      .values([...terms])
      .execute();
}

export async function updateRule(db: Executor, id: number, changes: RuleChanges): Promise<void> {
  if (Object.keys(changes).length > 0)
    await db.updateTable('styleguide_rules').set(changes).where('id', '=', id).execute();
}

export async function updateTerm(db: Executor, id: number, changes: TermChanges): Promise<void> {
  if (Object.keys(changes).length > 0)
    await db.updateTable('styleguide_terms').set(changes).where('id', '=', id).execute();
}

export async function deleteEntries(db: Executor, table: EntryTable, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom(table).where('id', 'in', ids).execute();
}
