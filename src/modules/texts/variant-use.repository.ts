import { type RawBuilder, sql } from 'kysely';
import { rowIdLookupColumn } from '../../db/query-plan.js';
import type { Executor } from '../../db/schema.js';
import { nextTurn } from '../../shared/next-turn.js';

/** Where `usedVariantIds` looks for variant values. */
export interface VariantUseScope {
  /** Row ids of projects (or bases): their text items, and the components their linked instances show. */
  containerIds: readonly number[];
  /** Whether every component of the library counts too. */
  library: boolean;
}

/** Values of one variant looked at per query: a few milliseconds of SQLite's time on the event loop. */
const VALUES_PER_PAGE = 1_000;

/** Text items whose values are looked up directly when the scope holds no more (and not the library). */
const SMALL_SCOPE = 10_000;

/** Text ids per `in (...)` list. */
const IDS_PER_QUERY = 5_000;

/**
 * Which of `variantIds` have a value (a `text_variants` row, whatever its text) in the scope: on
 * a text item of the containers, on the component a linked instance of them shows (its records
 * read the component's values through), or, with `library`, on any component. The answer is in
 * no particular order.
 *
 * Containers holding at most `SMALL_SCOPE` text items (without the library) are read directly:
 * their items' row ids and their instances' components' (one index range), then those texts'
 * variant ids by the values' primary key. Otherwise each variant's
 * values are walked in text order, a page of `VALUES_PER_PAGE` per query with a turn of the event
 * loop between pages, until one is in the scope: each page is an index range
 * (`text_variants_variant_text`) and two index probes per value (the text by its row id, the
 * instances by their component). A variant used in the scope is usually found in its first page
 * whatever the size of the workspace; one with no value at all costs one empty page. The longest
 * walk is a variant with many values none of which is in a large scope (docs/legacy-api.md).
 */
export async function usedVariantIds(
  db: Executor,
  workspaceId: number,
  variantIds: readonly number[],
  scope: VariantUseScope,
): Promise<Set<number>> {
  const used = new Set<number>();
  const containers = [...new Set(scope.containerIds)];
  if (containers.length === 0 && !scope.library) return used;
  const textIds = scope.library ? null : await textIdsUpTo(db, workspaceId, containers, SMALL_SCOPE);
  if (textIds !== null) {
    const found = await variantsOfTexts(db, textIds);
    for (const id of variantIds) if (found.has(id)) used.add(id);
    return used;
  }
  const inScope = valueInScope(db, workspaceId, containers, scope.library);
  for (const variantId of new Set(variantIds)) {
    let after = 0;
    for (;;) {
      const { rows } = await sql<{ last: number | null; n: number; hit: number | null }>`
        select max(page.text_id) as last, count(*) as n, max(${inScope}) as hit
        from (select text_id from text_variants where variant_id = ${variantId} and text_id > ${after}
          order by text_id limit ${VALUES_PER_PAGE}) page`.execute(db);
      const row = rows[0];
      if (row && Number(row.hit) === 1) {
        used.add(variantId);
        break;
      }
      if (!row || Number(row.n) < VALUES_PER_PAGE) break;
      after = Number(row.last);
      await nextTurn();
    }
  }
  return used;
}

/**
 * The row ids of the containers' text items and of the components their instances show, or null
 * when the containers hold more than `cap` text items.
 */
async function textIdsUpTo(
  db: Executor,
  workspaceId: number,
  containers: readonly number[],
  cap: number,
): Promise<number[] | null> {
  const inContainers = sql.join(containers.map((id) => sql`${id}`));
  const { rows } = await sql<{ id: number; component_id: number | null }>`select id, component_id from texts
    where workspace_id = ${workspaceId} and kind = ${'text_item'} and project_id in (${inContainers})
    limit ${cap + 1}`.execute(db);
  if (rows.length > cap) return null;
  const ids = new Set<number>();
  for (const row of rows) {
    ids.add(Number(row.id));
    if (row.component_id !== null) ids.add(Number(row.component_id));
  }
  return [...ids];
}

/** The variant ids of the values of these texts, looked up by text id (the values' primary key). */
async function variantsOfTexts(db: Executor, textIds: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let from = 0; from < textIds.length; from += IDS_PER_QUERY) {
    const part = textIds.slice(from, from + IDS_PER_QUERY);
    const { rows } = await sql<{ variant_id: number }>`select distinct variant_id from text_variants
      where text_id in (${sql.join(part.map((id) => sql`${id}`))})`.execute(db);
    for (const row of rows) found.add(Number(row.variant_id));
  }
  return found;
}

/** 1 when the value of the page row `page.text_id` is in the scope, else 0. */
function valueInScope(
  db: Executor,
  workspaceId: number,
  containers: readonly number[],
  library: boolean,
): RawBuilder<unknown> {
  // Each value's text is looked up by its row id and its instances by their component: the
  // other columns keep SQLite's planner on those two indexes (with one project it would walk the
  // project's texts through `texts_project_idx` for every value of the page).
  const kind = rowIdLookupColumn(db, 't.kind');
  const project = rowIdLookupColumn(db, 't.project_id');
  const inContainers = sql.join(containers.map((id) => sql`${id}`));
  const owners = [];
  if (containers.length > 0) owners.push(sql`(${kind} = ${'text_item'} and ${project} in (${inContainers}))`);
  if (library) owners.push(sql`${kind} = ${'component'}`);
  const terms = [
    sql`exists (select 1 from texts t where t.id = page.text_id and t.workspace_id = ${workspaceId}
      and (${sql.join(owners, sql` or `)}))`,
  ];
  if (containers.length > 0) {
    // The value of a component that a linked instance of the containers shows.
    const instanceKind = rowIdLookupColumn(db, 'i.kind');
    const instanceProject = rowIdLookupColumn(db, 'i.project_id');
    const instanceWorkspace = rowIdLookupColumn(db, 'i.workspace_id');
    terms.push(sql`exists (select 1 from texts i where i.component_id = page.text_id
      and ${instanceWorkspace} = ${workspaceId} and ${instanceKind} = ${'text_item'}
      and ${instanceProject} in (${inContainers}))`);
  }
  return sql`case when ${sql.join(terms, sql` or `)} then 1 else 0 end`;
}
