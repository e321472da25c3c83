import type { ReactNode } from 'react';
import { activeFilterCount, type Facts, type FilterGroup, type Filters, passesAll } from './routes';
import type { WorkspaceData } from './useWorkspaceData';

const STATES = [
  ['missing', 'Missing'],
  ['outdated', 'Outdated'],
  ['upToDate', 'Up to date'],
] as const;

/** A choice of a filter group: a status id, a tag, a state, `me`, `unassigned`, true or false; null for "any". */
type Choice = string | boolean | null;

/** How many texts each choice would show given the other filters, and the tags to choose from. */
export interface FilterCounts {
  count: (group: FilterGroup, value: Choice) => number;
  tags: string[];
}

/** The counts of texts held whole (the library): each choice tested against every text's facts. */
export function countsOfFacts(facts: readonly Facts[], filters: Filters, me: string): FilterCounts {
  const tests: Record<FilterGroup, (t: Facts, value: Choice) => boolean> = {
    status: (t, v) => t.status === v,
    assignee: (t, v) => (v === null ? true : v === 'me' ? t.assignee === me : !t.assignee),
    tags: (t, v) => t.tags.includes(String(v)),
    state: (t, v) => (t.states[filters.variant ?? ''] ?? 'missing') === v,
    integrated: (t, v) => v === null || t.integrated === v,
    plurals: (t, v) => v === null || t.plurals === v,
    variables: (t, v) => v === null || t.variables === v,
    comments: (t) => t.openComments > 0,
    q: () => true,
  };
  return {
    count: (group, value) => facts.filter((t) => passesAll(filters, t, me, group) && tests[group](t, value)).length,
    tags: [...new Set(facts.flatMap((t) => t.tags))].sort(),
  };
}

/**
 * The list's filters, each option with the number of texts it would show given the other
 * filters. Every change goes to the URL's query string (`onChange`), which is what filters.
 */
export function FilterPanel({
  filters,
  counts,
  data,
  onChange,
}: {
  filters: Filters;
  counts: FilterCounts;
  data: WorkspaceData;
  onChange: (next: Filters) => void;
}) {
  const count = counts.count;
  const tags = counts.tags;
  const active = activeFilterCount(filters);
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });

  const yesNo = (group: 'integrated' | 'plurals' | 'variables', legend: string) => (
    <ChoiceGroup legend={legend}>
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
          {label} ({count(group, value)})
        </label>
      ))}
    </ChoiceGroup>
  );

  return (
    <details className="filters" open={active > 0 || undefined}>
      <summary>Filters{active ? ` (${active} on)` : ''}</summary>
      <div className="filter-groups">
        <label className="filter-q">
          Text or ID contains
          <input type="search" value={filters.q} onChange={(e) => set({ q: e.target.value })} />
        </label>
        <ChoiceGroup legend="Status">
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
              {s.name} ({count('status', s.id)})
            </label>
          ))}
        </ChoiceGroup>
        <ChoiceGroup legend="Assignee">
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
              {label} ({count('assignee', value)})
            </label>
          ))}
        </ChoiceGroup>
        {tags.length > 0 && (
          <ChoiceGroup legend="Tags">
            {tags.map((tag) => (
              <label key={tag} className="check">
                <input
                  type="checkbox"
                  checked={filters.tags.includes(tag)}
                  onChange={(e) =>
                    set({ tags: e.target.checked ? [...filters.tags, tag] : filters.tags.filter((x) => x !== tag) })
                  }
                />
                {tag} ({count('tags', tag)})
              </label>
            ))}
          </ChoiceGroup>
        )}
        {data.variants.length > 0 && (
          <ChoiceGroup legend="Variant state">
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
                  {label} ({count('state', state)})
                </label>
              ))}
          </ChoiceGroup>
        )}
        {yesNo('integrated', 'Integrated')}
        {yesNo('plurals', 'Has plural forms')}
        {yesNo('variables', 'Has variables')}
        <ChoiceGroup legend="Comments">
          <label className="check">
            <input
              type="checkbox"
              checked={filters.comments === 'open'}
              onChange={(e) => set({ comments: e.target.checked ? 'open' : null })}
            />
            Has open comments ({count('comments', true)})
          </label>
        </ChoiceGroup>
      </div>
    </details>
  );
}

function ChoiceGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="choice">
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}
