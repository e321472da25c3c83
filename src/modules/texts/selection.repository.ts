import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Database, Executor } from '../../db/schema.js';
import { assembleEntities, type TextVariableRow } from './entities.js';
import { TEXT_COLUMNS } from './texts.repository.js';
import type { TextEntity, TextKind } from './texts.types.js';

/**
 * The SQL of a read: the texts a request selects, and only those, in three queries that share
 * one WHERE (the texts, their variant values, their listed variables), ordered by developer ID.
 */
export interface SqlSelection {
  kind: TextKind;
  /** Text items: row ids of the projects and bases to read. */
  containerIds?: readonly number[];
  /** Components: folder row ids to read (null: the library root); undefined: every folder. */
  folderIds?: ReadonlySet<number | null>;
  integrated?: boolean;
  /** Base statuses to keep; only when every text read is subject to the status filter. */
  statuses?: readonly string[];
  /** Base assignee to keep (null: unassigned); only with the same condition. */
  assigneeId?: number | null;
  /** The variant values to read: every one, or those of these variant row ids (none: base text only). */
  variantIds: 'all' | readonly number[];
}

type Where = ExpressionBuilder<Database, 'texts'>;

function conditions(eb: Where, workspaceId: number, s: SqlSelection): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb('texts.workspace_id', '=', workspaceId), eb('texts.kind', '=', s.kind)];
  if (s.containerIds) all.push(eb('texts.project_id', 'in', [...s.containerIds]));
  if (s.folderIds) {
    const ids = [...s.folderIds].filter((id): id is number => id !== null);
    const either: Expression<SqlBool>[] = [];
    if (ids.length > 0) either.push(eb('texts.folder_id', 'in', ids));
    if (s.folderIds.has(null)) either.push(eb('texts.folder_id', 'is', null));
    all.push(eb.or(either));
  }
  if (s.integrated !== undefined) all.push(eb('texts.integrated', '=', s.integrated ? 1 : 0));
  if (s.statuses) all.push(eb('texts.status', 'in', [...s.statuses]));
  if (s.assigneeId !== undefined) {
    all.push(s.assigneeId === null ? eb('texts.assignee_id', 'is', null) : eb('texts.assignee_id', '=', s.assigneeId));
  }
  return eb.and(all);
}

/** Developer IDs compare by code unit, the same on both databases whatever their collation. */
export const compareDeveloperIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The selected texts with their variant values and variables, ordered by developer ID. */
export async function loadSelection(db: Executor, workspaceId: number, s: SqlSelection): Promise<TextEntity[]> {
  if (s.containerIds?.length === 0 || s.folderIds?.size === 0 || s.statuses?.length === 0) return [];
  const where = (eb: Where) => conditions(eb, workspaceId, s);
  // PostgreSQL orders by the database's collation unless told otherwise; "C" is byte order, which
  // for developer IDs (ASCII by their pattern) is code-unit order, SQLite's default.
  const byDeveloperId = dialectOf(db) === 'postgres' ? sql`texts.developer_id collate "C"` : sql`texts.developer_id`;
  const variantIds = s.variantIds;
  const [texts, variants, variables] = await Promise.all([
    db.selectFrom('texts').select(TEXT_COLUMNS).where(where).orderBy(byDeveloperId).execute(),
    variantIds !== 'all' && variantIds.length === 0
      ? []
      : db
          .selectFrom('text_variants')
          .innerJoin('texts', 'texts.id', 'text_variants.text_id')
          .selectAll('text_variants')
          .where((eb) => where(eb as unknown as Where))
          .$if(variantIds !== 'all', (q) => q.where('text_variants.variant_id', 'in', [...(variantIds as number[])]))
          .execute(),
    db
      .selectFrom('text_variables')
      .innerJoin('texts', 'texts.id', 'text_variables.text_id')
      .select(['text_variables.text_id', 'text_variables.variable_id'])
      .where((eb) => where(eb as unknown as Where))
      .execute() as Promise<TextVariableRow[]>,
  ]);
  const entities = assembleEntities(texts, variants, variables);
  // Any id outside the pattern (none today) still comes back in the API's order.
  for (let i = 1; i < entities.length; i += 1) {
    if (compareDeveloperIds((entities[i - 1] as TextEntity).developerId, (entities[i] as TextEntity).developerId) > 0) {
      return entities.sort((a, b) => compareDeveloperIds(a.developerId, b.developerId));
    }
  }
  return entities;
}
