import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

/** Per variant (row id): how many of the container's items lack a value, and how many have one out of date. */
export interface StateCountRow {
  variantId: number;
  total: number;
  missing: number;
  outdated: number;
}

/**
 * The translation states of one project's (or base's) text items counted by the database, per
 * variant of the workspace: no text is loaded. A linked instance counts with its component's
 * values and text version (`coalesce(component_id, id)`), as the reader shows it. At 100,000
 * items this is one pass over an index per variant, where loading every item to count them in
 * memory took seconds.
 */
export async function countProjectStates(
  db: Executor,
  workspaceId: number,
  containerId: number,
): Promise<StateCountRow[]> {
  const { rows } = await sql<{ variant_id: number; total: number; missing: number; outdated: number }>`
    select v.id as variant_id,
      count(*) as total,
      coalesce(sum(case when tv.text_id is null then 1 else 0 end), 0) as missing,
      coalesce(sum(case when tv.text_id is not null and tv.text_version < src.text_version then 1 else 0 end), 0) as outdated
    from texts t
    join texts src on src.id = coalesce(t.component_id, t.id)
    join variants v on v.workspace_id = t.workspace_id
    left join text_variants tv on tv.text_id = src.id and tv.variant_id = v.id
    where t.workspace_id = ${workspaceId} and t.kind = 'text_item' and t.project_id = ${containerId}
    group by v.id`.execute(db);
  return rows.map((r) => ({
    variantId: Number(r.variant_id),
    total: Number(r.total),
    missing: Number(r.missing),
    outdated: Number(r.outdated),
  }));
}
