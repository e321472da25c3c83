/**
 * The query of a project's list as `GET /v2/textItems/rows` takes it (docs/app-list.md). Pure,
 * and without imports, so that test/web/rowsQuery.test.ts runs it under Node.
 */

/** What of the list's filters (`Filters`, routes.ts) the query says. */
export interface ListFilters {
  status: string[];
  assignee: string | null;
  tags: string[];
  variant: string | null;
  state: string | null;
  integrated: boolean | null;
  plurals: boolean | null;
  variables: boolean | null;
  comments: string | null;
  q: string;
}

/**
 * The query string of a project's list: its place, the filters as the server takes them, and the
 * variants whose state each row should say. `me` stands for the signed-in person in `assignee`;
 * `commented` are the texts with open comments (the comments filter).
 */
export function rowsQuery({
  projectId,
  blockId,
  filters,
  me,
  states,
  commented,
}: {
  projectId: string;
  blockId: string | null;
  filters: ListFilters;
  me: string;
  states: readonly string[];
  commented: readonly string[];
}): string {
  const q = new URLSearchParams({ projectId });
  if (blockId) q.set('blockId', blockId);
  if (filters.status.length) q.set('status', filters.status.join(','));
  if (filters.assignee) q.set('assignee', filters.assignee === 'me' ? me : filters.assignee);
  if (filters.tags.length) q.set('tags', filters.tags.join(','));
  if (filters.variant) q.set('variant', filters.variant);
  if (filters.variant && filters.state) q.set('state', filters.state);
  for (const flag of ['integrated', 'plurals', 'variables'] as const)
    if (filters[flag] !== null) q.set(flag, String(filters[flag]));
  if (filters.comments) q.set('ids', commented.join(','));
  if (filters.q.trim()) q.set('q', filters.q.trim());
  if (states.length) q.set('states', states.join(','));
  return q.toString();
}
