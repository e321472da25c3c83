/**
 * The app's places as URLs and back, and the list filters kept in the query string. Pure
 * functions: unit-tested in test/web/routes.test.ts.
 */

export type Place =
  | { page: 'home' }
  | { page: 'project'; projectId: string; blockId: string | null; textId: string | null }
  | { page: 'library'; folderId: string | null; componentId: string | null }
  | { page: 'search' }
  | { page: 'history'; kind: string | null; developerId: string | null }
  | { page: 'import' }
  | { page: 'export' }
  | { page: 'releases' }
  | { page: 'settings'; section: string | null }
  | { page: 'comments' }
  | { page: 'inbox' }
  | { page: 'unknown' };

const part = (s: string | undefined) => (s === undefined ? '' : decodeURIComponent(s));
const enc = encodeURIComponent;

export function parsePlace(path: string): Place {
  const bits = path.split('/').filter(Boolean);
  const [first, second, third, fourth] = bits;
  if (bits.length === 0) return { page: 'home' };
  if (first === 'projects' && second) {
    const projectId = part(second);
    if (bits.length === 2) return { page: 'project', projectId, blockId: null, textId: null };
    if (third === 'blocks' && fourth && bits.length === 4)
      return { page: 'project', projectId, blockId: part(fourth), textId: null };
    if (third === 'texts' && fourth && bits.length === 4)
      return { page: 'project', projectId, blockId: null, textId: part(fourth) };
  }
  if (first === 'library') {
    if (bits.length === 1) return { page: 'library', folderId: null, componentId: null };
    if (second === 'folders' && third && bits.length === 3)
      return { page: 'library', folderId: part(third), componentId: null };
    if (second === 'components' && third && bits.length === 3)
      return { page: 'library', folderId: null, componentId: part(third) };
  }
  if (first === 'search' && bits.length === 1) return { page: 'search' };
  if (first === 'history') {
    if (bits.length === 1) return { page: 'history', kind: null, developerId: null };
    if (bits.length === 3) return { page: 'history', kind: part(second), developerId: part(third) };
  }
  if (first === 'import' && bits.length === 1) return { page: 'import' };
  if (first === 'export' && bits.length === 1) return { page: 'export' };
  if (first === 'releases' && bits.length === 1) return { page: 'releases' };
  if (first === 'comments' && bits.length === 1) return { page: 'comments' };
  if (first === 'inbox' && bits.length === 1) return { page: 'inbox' };
  if (first === 'settings' && bits.length <= 2) return { page: 'settings', section: second ? part(second) : null };
  return { page: 'unknown' };
}

export const projectUrl = (projectId: string) => `/projects/${enc(projectId)}`;
export const blockUrl = (projectId: string, blockId: string) => `/projects/${enc(projectId)}/blocks/${enc(blockId)}`;
export const textUrl = (projectId: string, textId: string) => `/projects/${enc(projectId)}/texts/${enc(textId)}`;
export const folderUrl = (folderId: string | null) => (folderId ? `/library/folders/${enc(folderId)}` : '/library');
export const componentUrl = (componentId: string) => `/library/components/${enc(componentId)}`;

/**
 * Where a record of the history opens ("Open" beside it): a component in the library, a
 * distribution on the Releases page, a text item (and anything else) found by search.
 */
export function recordUrl(kind: string, developerId: string): string {
  if (kind === 'component') return componentUrl(developerId);
  if (kind === 'distribution') return '/releases';
  return `/search?q=${encodeURIComponent(developerId)}`;
}

/** The list filters; every field absent means "no restriction". Combined with AND. */
export interface Filters {
  status: string[];
  assignee: string | null;
  tags: string[];
  variant: string | null;
  state: 'missing' | 'outdated' | 'upToDate' | null;
  integrated: boolean | null;
  plurals: boolean | null;
  variables: boolean | null;
  /** `open`: only texts with at least one unresolved comment thread. */
  comments: 'open' | null;
  q: string;
}

export const NO_FILTERS: Filters = {
  status: [],
  assignee: null,
  tags: [],
  variant: null,
  state: null,
  integrated: null,
  plurals: null,
  variables: null,
  comments: null,
  q: '',
};

const list = (value: string | null) => (value ? value.split(',').filter(Boolean) : []);
const bool = (value: string | null) => (value === 'true' ? true : value === 'false' ? false : null);
const STATES = ['missing', 'outdated', 'upToDate'] as const;

export function parseFilters(search: string): Filters {
  const query = new URLSearchParams(search);
  const state = query.get('state');
  const assignee = query.get('assignee');
  return {
    status: list(query.get('status')),
    assignee: assignee && assignee !== 'anyone' ? assignee : null,
    tags: list(query.get('tags')),
    variant: query.get('variant') || null,
    state: (STATES as readonly string[]).includes(state ?? '') ? (state as Filters['state']) : null,
    integrated: bool(query.get('integrated')),
    plurals: bool(query.get('plurals')),
    variables: bool(query.get('variables')),
    comments: query.get('comments') === 'open' ? 'open' : null,
    q: query.get('q') ?? '',
  };
}

/** The query string (without `?`) of `filters`, in a fixed order; empty when nothing is filtered. */
export function filtersQuery(filters: Filters): string {
  const query = new URLSearchParams();
  if (filters.status.length) query.set('status', filters.status.join(','));
  if (filters.assignee) query.set('assignee', filters.assignee);
  if (filters.tags.length) query.set('tags', filters.tags.join(','));
  if (filters.variant && filters.state) {
    query.set('variant', filters.variant);
    query.set('state', filters.state);
  }
  if (filters.integrated !== null) query.set('integrated', String(filters.integrated));
  if (filters.plurals !== null) query.set('plurals', String(filters.plurals));
  if (filters.variables !== null) query.set('variables', String(filters.variables));
  if (filters.comments) query.set('comments', filters.comments);
  if (filters.q) query.set('q', filters.q);
  return query.toString().replace(/%2C/g, ',');
}

export const activeFilterCount = (f: Filters) =>
  (f.status.length ? 1 : 0) +
  (f.assignee ? 1 : 0) +
  (f.tags.length ? 1 : 0) +
  (f.variant && f.state ? 1 : 0) +
  (f.integrated !== null ? 1 : 0) +
  (f.plurals !== null ? 1 : 0) +
  (f.variables !== null ? 1 : 0) +
  (f.comments ? 1 : 0) +
  (f.q ? 1 : 0);

/** What the filters need to know of one text. */
export interface Facts {
  status: string;
  assignee: string | null;
  tags: string[];
  integrated: boolean;
  plurals: boolean;
  variables: boolean;
  text: string;
  developerId: string;
  name: string | null;
  states: Record<string, string>;
  /** Unresolved comment threads on the text (base and variants). */
  openComments: number;
}

export type FilterGroup =
  | 'status'
  | 'assignee'
  | 'tags'
  | 'state'
  | 'integrated'
  | 'plurals'
  | 'variables'
  | 'comments'
  | 'q';

/** Whether one text passes one group of the filters (`me` is the signed-in person's email). */
export function passes(group: FilterGroup, f: Filters, t: Facts, me: string): boolean {
  switch (group) {
    case 'status':
      return f.status.length === 0 || f.status.includes(t.status);
    case 'assignee':
      if (!f.assignee) return true;
      if (f.assignee === 'unassigned') return t.assignee === null || t.assignee === '';
      return t.assignee === (f.assignee === 'me' ? me : f.assignee);
    case 'tags':
      return f.tags.every((tag) => t.tags.includes(tag));
    case 'state':
      return !f.variant || !f.state || (t.states[f.variant] ?? 'missing') === f.state;
    case 'integrated':
      return f.integrated === null || t.integrated === f.integrated;
    case 'plurals':
      return f.plurals === null || t.plurals === f.plurals;
    case 'variables':
      return f.variables === null || t.variables === f.variables;
    case 'comments':
      return !f.comments || t.openComments > 0;
    case 'q': {
      const q = f.q.trim().toLowerCase();
      return (
        !q ||
        t.text.toLowerCase().includes(q) ||
        t.developerId.toLowerCase().includes(q) ||
        (t.name ?? '').toLowerCase().includes(q)
      );
    }
  }
}

export const GROUPS: FilterGroup[] = [
  'status',
  'assignee',
  'tags',
  'state',
  'integrated',
  'plurals',
  'variables',
  'comments',
  'q',
];

/** Whether a text passes every group except `except` (a facet's counts ignore its own group). */
export const passesAll = (f: Filters, t: Facts, me: string, except?: FilterGroup) =>
  GROUPS.every((g) => g === except || passes(g, f, t, me));
