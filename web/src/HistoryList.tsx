import { type FormEvent, type MouseEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { api } from './api';
import { ErrorBoundary } from './ErrorBoundary';
import {
  acceptedSuggestions,
  type Change,
  type Entry,
  groupChanges,
  KINDS,
  kindName,
  RESTORABLE,
  recordVerb,
  summary,
} from './history/describe';
import { ChangeFields } from './history/FieldDiff';
import './history/history.css';

/** The filters of the history, as they stand in the page's query string. */
export interface HistoryFilters {
  kind?: string;
  id?: string;
  actor?: string;
  /** First day shown (YYYY-MM-DD), inclusive. */
  since?: string;
  /** Last day shown (YYYY-MM-DD), inclusive. */
  until?: string;
  /** Start at this page of the log (the API's cursor). */
  cursor?: string;
}

const FILTER_NAMES = ['kind', 'id', 'actor', 'since', 'until', 'cursor'] as const;

/** The filters of a query string (`?kind=textItem&actor=…`). */
export function parseHistoryQuery(search: string): HistoryFilters {
  const params = new URLSearchParams(search);
  const out: HistoryFilters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value) out[name] = value;
  }
  return out;
}

/** The query string of filters, without the leading `?` ('' when none). */
export function historyQueryString(filters: HistoryFilters): string {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) if (filters[name]) params.set(name, filters[name] as string);
  return params.toString();
}

/** The path of one record's history. */
export const recordHistoryPath = (kind: string, developerId: string) =>
  `/history/${encodeURIComponent(kind)}/${encodeURIComponent(developerId)}`;

const PAGE = 50;

/** The day after a YYYY-MM-DD date: the API's `until` is exclusive, the page's last day is not. */
function dayAfter(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

function apiQuery(filters: HistoryFilters, cursor: string | undefined): string {
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.id) params.set('id', filters.id);
  if (filters.actor) params.set('actor', filters.actor);
  if (filters.since) params.set('since', filters.since);
  if (filters.until) params.set('until', dayAfter(filters.until));
  if (cursor) params.set('cursor', cursor);
  return `history?${params}`;
}

interface LinkProps {
  /** Follows a link of the page (a record's history) inside the app; without it links load the page. */
  onNavigate?: (path: string) => void;
  /** Opens a record in the editor ("Open" beside its name); without it there is no such button. */
  onOpenRecord?: (kind: string, developerId: string) => void;
  /** Called after a restore, when the restored record may be on screen elsewhere. */
  onRestored?: () => void;
  /** Whether the signed-in role may restore (`can(role, 'edit')`): without it no restore or undo buttons. */
  canEdit: boolean;
}

/**
 * The history of one record under its editor (`kind` and `developerId`), or the workspace's
 * recent changes without them. Kept for the editor; the pages use HistoryPage.
 */
export function HistoryList({ kind, developerId, ...links }: { kind?: string; developerId?: string } & LinkProps) {
  const filters = useMemo(() => (kind && developerId ? { kind, id: developerId } : {}), [kind, developerId]);
  if (!developerId) return <HistoryPage filters={filters} {...links} />;
  return (
    <section className="history" aria-label={`History of ${kindName(kind ?? '')} ${developerId}`}>
      <h2>History</h2>
      <HistoryView filters={filters} record {...links} />
    </section>
  );
}

/**
 * The history page: the workspace's changes with filters (`filters`, from the URL; a change of
 * them calls `onFiltersChange`, which should put them in the URL), or one record's history when
 * `record` is given (`/history/:kind/:developerId`).
 */
export function HistoryPage({
  filters,
  onFiltersChange,
  record,
  ...links
}: {
  filters: HistoryFilters;
  onFiltersChange?: (filters: HistoryFilters) => void;
  record?: { kind: string; developerId: string };
} & LinkProps) {
  const [local, setLocal] = useState(filters);
  // By content: a parent that parses the address on every render must not reset the page.
  const given = historyQueryString(filters);
  useEffect(() => setLocal(parseHistoryQuery(given)), [given]);
  const change = (next: HistoryFilters) => (onFiltersChange ? onFiltersChange(next) : setLocal(next));
  const shown = useMemo(
    () => (record ? { ...local, kind: record.kind, id: record.developerId } : local),
    [local, record],
  );
  return (
    <main className="page history-page">
      <h1>{record ? `History of ${kindName(record.kind)} ${record.developerId}` : 'History'}</h1>
      {record && (
        <p>
          <Link path="/history" onNavigate={links.onNavigate}>
            All changes of the workspace
          </Link>
          {links.onOpenRecord && (
            <>
              {' · '}
              <button
                type="button"
                className="link"
                onClick={() => links.onOpenRecord?.(record.kind, record.developerId)}
              >
                Open {kindName(record.kind)} {record.developerId}
              </button>
            </>
          )}
        </p>
      )}
      <HistoryFilterForm filters={local} record={Boolean(record)} onChange={change} />
      {/* A change the page cannot draw leaves the page, its heading and filters in place. */}
      <ErrorBoundary what="This page">
        <HistoryView filters={shown} record={Boolean(record)} {...links} />
      </ErrorBoundary>
    </main>
  );
}

function Link({ path, onNavigate, children }: { path: string; onNavigate?: (path: string) => void; children: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!onNavigate || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onNavigate(path);
  };
  return (
    <a href={path} onClick={follow}>
      {children}
    </a>
  );
}

function HistoryFilterForm({
  filters,
  record,
  onChange,
}: {
  filters: HistoryFilters;
  record: boolean;
  onChange: (filters: HistoryFilters) => void;
}) {
  const [users, setUsers] = useState<{ email: string; name: string }[]>([]);
  useEffect(() => {
    api
      .get<{ email: string; name: string }[]>('users')
      .then(setUsers)
      .catch(() => setUsers([]));
  }, []);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: HistoryFilters = {};
    for (const name of ['kind', 'id', 'actor', 'since', 'until'] as const) {
      const value = String(form.get(name) ?? '').trim();
      if (value) next[name] = value;
    }
    onChange(next);
  };
  const key = historyQueryString(filters);
  return (
    <form key={key} className="card history-filters" aria-label="Filter the history" onSubmit={onSubmit}>
      {!record && (
        <>
          <label>
            Kind
            <select name="kind" defaultValue={filters.kind ?? ''}>
              <option value="">Every kind</option>
              {Object.entries(KINDS).map(([kind, [one]]) => (
                <option key={kind} value={kind}>
                  {one}
                </option>
              ))}
            </select>
          </label>
          <label>
            Developer ID
            <input name="id" defaultValue={filters.id ?? ''} placeholder="any record" />
          </label>
        </>
      )}
      <label>
        Person
        <select name="actor" defaultValue={filters.actor ?? ''}>
          <option value="">Anyone</option>
          {filters.actor && !users.some((u) => u.email === filters.actor) && (
            <option value={filters.actor}>{filters.actor}</option>
          )}
          {users.map((u) => (
            <option key={u.email} value={u.email}>
              {u.name ? `${u.name} (${u.email})` : u.email}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input type="date" name="since" defaultValue={filters.since ?? ''} />
      </label>
      <label>
        To
        <input type="date" name="until" defaultValue={filters.until ?? ''} />
      </label>
      <div className="history-filter-buttons">
        <button type="submit">Apply filters</button>
        <button type="button" onClick={() => onChange({})}>
          Clear
        </button>
      </div>
    </form>
  );
}

/** Loads the changes (a page at a time), groups each write's changes, offers restores. */
function HistoryView({
  filters,
  record = false,
  onNavigate,
  onOpenRecord,
  onRestored,
  canEdit,
}: { filters: HistoryFilters; record?: boolean } & LinkProps) {
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [round, setRound] = useState(0);
  // Who suggested what an accept wrote, by revision: a text's own history lacks the suggestion's change.
  const [suggestions, setSuggestions] = useState<ReadonlyMap<string, string>>(new Map());

  useEffect(() => {
    api
      .get<{ id: string; name: string }[]>('statuses')
      .then((statuses) => setNames(new Map(statuses.map((s) => [s.id, s.name]))))
      .catch(() => undefined);
  }, []);

  // The filters by content, so that an equal object from a new render reads nothing again.
  const query = historyQueryString(filters);
  const read = useCallback(
    async (cursor: string | undefined, append: boolean) => {
      setBusy(true);
      try {
        const page = await api.get<{ changes: Change[]; nextCursor: string | null }>(
          apiQuery(parseHistoryQuery(query), cursor),
        );
        setChanges((before) => (append && before ? [...before, ...page.changes] : page.changes));
        setNext(page.nextCursor);
        const filtered = parseHistoryQuery(query);
        const oldest = page.changes[page.changes.length - 1]?.at;
        const onText = filtered.kind === 'textItem' || filtered.kind === 'component';
        if (onText && oldest && page.changes.some((c) => c.action === 'updated' && c.revision)) {
          // One read for the page: the suggestions accepted since its oldest change.
          const since = new URLSearchParams({ kind: 'suggestion', since: oldest, limit: '1000' });
          const accepted = await api
            .get<{ changes: Change[] }>(`history?${since}`)
            .then((r) => acceptedSuggestions(r.changes))
            .catch(() => new Map<string, string>());
          setSuggestions((before) => (append ? new Map([...before, ...accepted]) : accepted));
        }
        setError(null);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        setBusy(false);
      }
    },
    [query],
  );

  useEffect(() => {
    void round;
    void read(filters.cursor, false);
  }, [read, filters.cursor, round]);

  const entries = useMemo(() => groupChanges(changes ?? []), [changes]);
  const restored = (message: string) => {
    setDone(message);
    setRound((r) => r + 1);
    onRestored?.();
  };

  if (error && !changes)
    return (
      <p role="alert" className="error">
        The history could not be read: {error}
      </p>
    );
  if (!changes) return <p aria-busy="true">Loading history…</p>;
  return (
    <section className="history-view" aria-label={record ? 'Changes of this record' : 'Recent changes'}>
      <div role="status">{done && <p className="notice">{done}</p>}</div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {entries.length === 0 && <p className="muted">No changes{record ? ' of this record' : ''} match.</p>}
      <ol className="history-entries">
        {entries.map((entry) => (
          <HistoryEntry
            key={entry.key}
            entry={entry}
            record={record}
            names={names}
            suggestions={suggestions}
            onNavigate={onNavigate}
            onOpenRecord={onOpenRecord}
            onRestored={canEdit ? restored : undefined}
          />
        ))}
      </ol>
      {next && (
        <button type="button" disabled={busy} onClick={() => void read(next, true)}>
          Older changes
        </button>
      )}
    </section>
  );
}

const when = (at: string) => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function HistoryEntry({
  entry,
  record,
  names,
  suggestions,
  onNavigate,
  onOpenRecord,
  onRestored,
}: {
  entry: Entry;
  record: boolean;
  names: ReadonlyMap<string, string>;
  suggestions: ReadonlyMap<string, string>;
  onNavigate?: (path: string) => void;
  onOpenRecord?: (kind: string, developerId: string) => void;
  onRestored?: (message: string) => void;
}) {
  const head = (
    <>
      <time dateTime={entry.at}>{when(entry.at)}</time> <strong>{entry.actor}</strong>{' '}
    </>
  );
  const [only] = entry.records;
  if (entry.records.length === 1 && only) {
    return (
      <li className="history-entry">
        <p className="entry-head">
          {head}
          {recordVerb(only, suggestions)} {kindName(only.kind)}{' '}
          {record ? (
            <code>{only.developerId}</code>
          ) : (
            <Link path={recordHistoryPath(only.kind, only.developerId)} onNavigate={onNavigate}>
              {only.developerId}
            </Link>
          )}
        </p>
        <RecordChanges
          record={only}
          names={names}
          onOpenRecord={record ? undefined : onOpenRecord}
          onRestored={onRestored}
        />
      </li>
    );
  }
  return (
    <li className="history-entry">
      {entry.revision !== null && onRestored && entry.records.some((r) => RESTORABLE.has(r.kind)) && (
        <UndoWrite entry={entry} onRestored={onRestored} />
      )}
      <details>
        <summary>
          {head}
          {summary(entry)}
        </summary>
        <ul className="entry-records">
          {entry.records.map((r) => (
            <li key={`${r.kind}:${r.developerId}`}>
              <p className="entry-head">
                {kindName(r.kind)}{' '}
                <Link path={recordHistoryPath(r.kind, r.developerId)} onNavigate={onNavigate}>
                  {r.developerId}
                </Link>
              </p>
              <RecordChanges record={r} names={names} onOpenRecord={onOpenRecord} onRestored={onRestored} />
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}

/** "Undo these changes": every record of one write back to how it was just before it. */
function UndoWrite({ entry, onRestored }: { entry: Entry; onRestored: (message: string) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const undo = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await api.post('history/restore', { revision: entry.revision });
      onRestored(`Undone: ${entry.actor} ${summary(entry)} (${when(entry.at)}).`);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="change-actions entry-undo">
      <button type="button" disabled={busy} onClick={() => void undo()}>
        Undo these changes
      </button>
      {problem && (
        <span role="alert" className="error">
          {problem}
        </span>
      )}
    </div>
  );
}

function RecordChanges({
  record,
  names,
  onOpenRecord,
  onRestored,
}: {
  record: Entry['records'][number];
  names: ReadonlyMap<string, string>;
  onOpenRecord?: (kind: string, developerId: string) => void;
  /** Without it, no restore button. */
  onRestored?: (message: string) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const main = record.changes.find((c) => c.variantId === null) ?? record.changes[0];
  const deleted = record.changes.some((c) => c.action === 'deleted');
  const restore = async () => {
    if (!main || !onRestored) return;
    setBusy(true);
    setProblem(null);
    try {
      await api.post('history/restore', { changeId: main.id });
      const what = `${kindName(record.kind)} ${record.developerId}`;
      onRestored(deleted ? `Restored the deleted ${what}.` : `Restored ${what} to its version of ${when(main.at)}.`);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {record.changes.map((change) => (
        <div key={change.id} className="change">
          {change.variantId && <p className="muted">Variant {change.variantId}</p>}
          <ChangeFields change={change} names={names} />
        </div>
      ))}
      <div className="change-actions">
        {onRestored && RESTORABLE.has(record.kind) && (
          <button type="button" disabled={busy} onClick={() => void restore()}>
            {deleted ? 'Restore' : 'Restore this version'}
          </button>
        )}
        {onOpenRecord && !deleted && (
          <button type="button" onClick={() => onOpenRecord(record.kind, record.developerId)}>
            Open
          </button>
        )}
        {problem && (
          <span role="alert" className="error">
            {problem}
          </span>
        )}
      </div>
    </>
  );
}
