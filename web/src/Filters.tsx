import type { ReactNode } from 'react';
import { activeFilterCount, type Facts, type FilterGroup, type Filters, passesAll } from './routes';
import type { WorkspaceData } from './useWorkspaceData';

const STATES = [
  ['missing', 'Missing'],
  ['outdated', 'Outdated'],
  ['upToDate', 'Up to date'],
] as const;

/**
 * The list's filters, each option with the number of texts it would show given the other
 * filters. Every change goes to the URL's query string (`onChange`), which is what filters.
 */
export function FilterPanel({
  filters,
  facts,
  me,
  data,
  onChange,
}: {
  filters: Filters;
  facts: Facts[];
  me: string;
  data: WorkspaceData;
  onChange: (next: Filters) => void;
}) {
  const count = (group: FilterGroup, test: (t: Facts) => boolean) =>
    facts.filter((t) => passesAll(filters, t, me, group) && test(t)).length;
  const tags = [...new Set(facts.flatMap((t) => t.tags))].sort();
  const active = activeFilterCount(filters);
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });

  const yesNo = (group: 'integrated' | 'plurals' | 'variables', legend: string) => (
    <Choice legend={legend}>
      {(
        [
          [null, 'Any'],
          [true, 'Yes'],
          [false, 'No'],
        ] as const
      ).map(([value, label]) => (
        <label key={label} className="check">
          <input
            type="radio"
            name={`filter-${group}`}
            checked={filters[group] === value}
            onChange={() => set({ [group]: value })}
          />
          {label} ({count(group, (t) => value === null || t[group] === value)})
        </label>
      ))}
    </Choice>
  );

  return (
    <details className="filters" open={active > 0 || undefined}>
      <summary>Filters{active ? ` (${active} on)` : ''}</summary>
      <div className="filter-groups">
        <label className="filter-q">
          Text or ID contains
          <input type="search" value={filters.q} onChange={(e) => set({ q: e.target.value })} />
        </label>
        <Choice legend="Status">
          {data.statuses.map((s) => (
            <label key={s.id} className="check">
              <input
                type="checkbox"
                checked={filters.status.includes(s.id)}
                onChange={(e) =>
                  set({
                    status: e.target.checked ? [...filters.status, s.id] : filters.status.filter((x) => x !== s.id),
                  })
                }
              />
              {s.name} ({count('status', (t) => t.status === s.id)})
            </label>
          ))}
        </Choice>
        <Choice legend="Assignee">
          {(
            [
              [null, 'Anyone'],
              ['me', 'Me'],
              ['unassigned', 'Unassigned'],
            ] as const
          ).map(([value, label]) => (
            <label key={label} className="check">
              <input
                type="radio"
                name="filter-assignee"
                checked={filters.assignee === value}
                onChange={() => set({ assignee: value })}
              />
              {label} (
              {count('assignee', (t) => (value === null ? true : value === 'me' ? t.assignee === me : !t.assignee))})
            </label>
          ))}
        </Choice>
        {tags.length > 0 && (
          <Choice legend="Tags">
            {tags.map((tag) => (
              <label key={tag} className="check">
                <input
                  type="checkbox"
                  checked={filters.tags.includes(tag)}
                  onChange={(e) =>
                    set({ tags: e.target.checked ? [...filters.tags, tag] : filters.tags.filter((x) => x !== tag) })
                  }
                />
                {tag} ({count('tags', (t) => t.tags.includes(tag))})
              </label>
            ))}
          </Choice>
        )}
        {data.variants.length > 0 && (
          <Choice legend="Variant state">
            <label>
              Variant
              <select
                value={filters.variant ?? ''}
                onChange={(e) => set({ variant: e.target.value || null, state: e.target.value ? filters.state : null })}
              >
                <option value="">Any variant</option>
                {data.variants.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
              </select>
            </label>
            {filters.variant &&
              STATES.map(([state, label]) => (
                <label key={state} className="check">
                  <input
                    type="radio"
                    name="filter-state"
                    checked={filters.state === state}
                    onChange={() => set({ state })}
                  />
                  {label} ({count('state', (t) => (t.states[filters.variant ?? ''] ?? 'missing') === state)})
                </label>
              ))}
          </Choice>
        )}
        {yesNo('integrated', 'Integrated')}
        {yesNo('plurals', 'Has plural forms')}
        {yesNo('variables', 'Has variables')}
      </div>
    </details>
  );
}

function Choice({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="choice">
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}
