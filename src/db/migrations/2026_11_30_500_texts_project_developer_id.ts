import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * One project's text items in developer-ID order, page after page: the Swift driver writes each
 * project's table in that order without holding the others (docs/swift-driver.md), as does a
 * fetch or export of one project. The unique index on (workspace, kind, developer ID) gives the
 * order but walks every text item of the workspace to find one project's; `texts_project_idx`
 * (project, position) finds them but not in order, so each page would sort the whole project
 * again. This index gives both: a seek to the project and the developer ID a page continues
 * after. On PostgreSQL the developer ID is indexed in the "C" collation, the code-unit order the
 * reads sort by.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const developerId = dialectOf(db) === 'postgres' ? sql`developer_id collate "C"` : sql`developer_id`;
  await sql`create index if not exists texts_project_developer_id
    on texts (workspace_id, kind, project_id, ${developerId})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists texts_project_developer_id`.execute(db);
}
