import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, getIfChanged, type Session, withFilter } from './api';
import { ArrangeProject, type OrderText } from './BlockOrder';
import { BulkBar } from './Bulk';
import type { OpenCounts } from './comments';
import { Editor } from './Editor';
import { ErrorBoundary } from './ErrorBoundary';
import { initialsOf, live, usePresence } from './events';
import { countsOfFacts, type FilterCounts, FilterPanel } from './Filters';
import { type ApiRecord, groupRecords, placeholders, type Text } from './model';
import {
  type Block,
  BlockTools,
  ComponentTools,
  FolderTools,
  type Organise,
  ProjectTools,
  TextTools,
} from './Organise';
import { can, openPurpose } from './roles';
import {
  componentUrl,
  type Facts,
  type FilterGroup,
  type Filters,
  filtersQuery,
  folderUrl,
  type Place,
  passesAll,
  projectUrl,
  textUrl,
} from './routes';
import { allRows, type ListRow, rowsQuery, useRowWindow } from './rowWindow';
import type { PendingCounts } from './suggestions';
import { type ListHandle, type ListItem, TextList } from './TextList';
import { TranslateMissing } from './TranslateMissing';
import type { WorkspaceData } from './useWorkspaceData';

/** How often the open list asks whether anything changed (a 304 when nothing did). */
const POLL_MS = 3000;
const VARIANTS_KEY = 'copydesk.variants';

type ListPlace = Extract<Place, { page: 'project' } | { page: 'library' }>;
type Record2 = ApiRecord & { translationStates?: Record<string, string> };

/** The variants the writer chose to see beside the base text (up to three), else the first three. */
/** Where the variants a project's list last showed are kept, per workspace (see `rowQuery`). */
const LIST_STATES_KEY = 'copydesk.listStates';

/** The variants kept under `key`, or null when none are (the list then waits for the workspace's data). */
function keptStates(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function shownVariants(data: WorkspaceData): WorkspaceData['variants'] {
  let chosen: string[] = [];
  try {
    const stored = JSON.parse(localStorage.getItem(VARIANTS_KEY) ?? '[]');
    if (Array.isArray(stored)) chosen = stored.filter((v): v is string => typeof v === 'string');
  } catch {
    chosen = [];
  }
  const picked = data.variants.filter((v) => chosen.includes(v.id));
  return (picked.length ? picked : data.variants).slice(0, 3);
}

interface Progress {
  variantId: string;
  total: number;
  missing: number;
  outdated: number;
  upToDate: number;
}

/**
 * A project's or a library folder's list, with its filters, selection and actions, and the
 * open text beside it. The place (project, block, folder, open text) and the filters come from
 * the URL; everything here follows it.
 */
export function TextsPage({
  place,
  filters,
  data,
  session,
  o,
  setFilters,
  blocks,
  refresher,
  focusThread = null,
  focusSuggestion = null,
}: {
  place: ListPlace;
  filters: Filters;
  data: WorkspaceData;
  session: Session;
  o: Organise;
  setFilters: (next: Filters) => void;
  /** The current project's blocks (read by the workspace, for the sidebar too). */
  blocks: Block[];
  /** Where this list puts its own "read again", for every write made elsewhere. */
  refresher: { current: () => Promise<void> };
  /** A comment thread of the open text to bring into view (the URL's `thread`). */
  focusThread?: string | null;
  /** A suggestion on the open text to bring into view (the URL's `suggestion`). */
  focusSuggestion?: string | null;
}) {
  const canEdit = can(session.role, 'edit');
  const isProject = place.page === 'project';
  const projectId = isProject ? place.projectId : null;
  const [records, setRecords] = useState<Record2[]>([]);
  const [texts, setTexts] = useState<Text[]>([]);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress[] | null>(null);
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const [active, setActive] = useState<string | null>(null);
  const anchor = useRef<string | null>(null);
  const listRef = useRef<ListHandle>(null);

  // The library is read whole (a component's link finds its folder); a project's list a window
  // at a time from the server (rowWindow.ts), and its open text on its own.
  const openItem = place.page === 'project' ? place.textId : null;
  const listUrl = useMemo(() => {
    const variants = [{ id: 'all' }];
    const extra = '&richText=html&withEtag=true&withTranslationState=true';
    if (projectId) {
      if (!openItem) return null;
      return withFilter(
        'textItems',
        { projects: [{ id: projectId }], variants },
        `&ids=${encodeURIComponent(openItem)}${extra}`,
      );
    }
    return withFilter('components', { variants }, extra);
  }, [projectId, openItem]);

  // The ETag of the list on screen: an unchanged list is neither parsed nor rendered again.
  const shown = useRef<{ url: string; etag: string | null } | null>(null);
  // The list asked for now: an answer for another (a text opened since, Back) is dropped, or it
  // would show that text's state until the next write, as polls rest while the stream is up.
  const wanted = useRef(listUrl);
  wanted.current = listUrl;
  const load = useCallback(async () => {
    if (listUrl === null) return;
    try {
      const known = shown.current?.url === listUrl ? shown.current.etag : null;
      const read = await getIfChanged<Record2[]>(listUrl, known);
      if (!read || wanted.current !== listUrl) return;
      shown.current = { url: listUrl, etag: read.etag };
      setRecords(read.data);
      setTexts(groupRecords(read.data, projectId ? 'textItem' : 'component'));
      setLoadedFor(listUrl);
      setListError(null);
    } catch (e) {
      setListError(e instanceof Error ? e.message : String(e));
    }
  }, [listUrl, projectId]);

  useEffect(() => {
    if (listUrl === null) {
      // A project's list with no text open: nothing of this read to hold or poll.
      setRecords((before) => (before.length ? [] : before));
      setTexts((before) => (before.length ? [] : before));
      setLoadedFor(null);
      return;
    }
    void load();
    // Every GET revalidates with If-None-Match (api.ts): an unchanged list is a 304 and costs nothing.
    // While the live stream is up, changes come through it (Workspace.tsx): the poll rests.
    const timer = window.setInterval(() => {
      if (!live.connected()) void load();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [load, listUrl]);

  const loadProgress = useCallback(async () => {
    const scope = projectId ? `?projectId=${encodeURIComponent(projectId)}` : '';
    api
      .get<Progress[]>(`translationProgress${scope}`)
      .then(setProgress)
      .catch(() => setProgress(null));
  }, [projectId]);
  // The progress follows the list: read again whenever it changed.
  const [progressRound, setProgressRound] = useState(0);
  useEffect(() => {
    void records;
    void progressRound;
    void loadProgress();
  }, [loadProgress, records, progressRound]);

  // Open comment threads per text, for the badges and the "has open comments" filter.
  const countsUrl = projectId ? `comments/counts?projectId=${encodeURIComponent(projectId)}` : 'comments/counts';
  const [counts, setCounts] = useState<Record<string, number>>({});
  const countsShown = useRef<{ url: string; etag: string | null } | null>(null);
  const loadCounts = useCallback(async () => {
    try {
      const known = countsShown.current?.url === countsUrl ? countsShown.current.etag : null;
      const read = await getIfChanged<OpenCounts>(countsUrl, known);
      if (!read) return;
      countsShown.current = { url: countsUrl, etag: read.etag };
      setCounts(projectId ? read.data.textItems : read.data.components);
    } catch {
      // The badges are a help: the list stays usable without them.
      setCounts({});
    }
  }, [countsUrl, projectId]);
  useEffect(() => {
    void loadCounts();
    const timer = window.setInterval(() => {
      if (!live.connected()) void loadCounts();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [loadCounts]);

  // Pending (open or stale) suggestions per text, for their badges: one grouped count.
  const [suggestionCounts, setSuggestionCounts] = useState<Record<string, number>>({});
  const loadSuggestionCounts = useCallback(async () => {
    const scope = projectId ? `?projectId=${encodeURIComponent(projectId)}` : '';
    try {
      const counted: PendingCounts = await api.get(`suggestions/counts${scope}`);
      const next = projectId ? counted.textItems : counted.components;
      setSuggestionCounts((before) => (JSON.stringify(before) === JSON.stringify(next) ? before : next));
    } catch {
      // The badges are a help: the list stays usable without them.
      setSuggestionCounts({});
    }
  }, [projectId]);
  useEffect(() => {
    void loadSuggestionCounts();
    const timer = window.setInterval(() => {
      if (!live.connected()) void loadSuggestionCounts();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [loadSuggestionCounts]);

  // A new place starts with nothing selected.
  const scopeKey = isProject ? `p:${place.projectId}:${place.blockId}` : `l:${place.folderId}`;
  useEffect(() => {
    void scopeKey;
    setSelection(new Set());
    anchor.current = null;
  }, [scopeKey]);

  // Which block or folder the list shows: an open text keeps the scope it was opened from.
  const openId = isProject ? place.textId : place.componentId;
  const [blockScope, setBlockScope] = useState<string | null>(isProject ? place.blockId : null);
  useEffect(() => {
    if (isProject && !place.textId) setBlockScope(place.blockId);
  }, [isProject, place]);
  const block = isProject && blockScope ? (blocks.find((b) => b.id === blockScope) ?? null) : null;
  const openText = openId ? (texts.find((t) => t.developerId === openId) ?? null) : null;

  const me = session.email;
  const variants = shownVariants(data);
  const stateIds = variants.map((v) => v.id).join(',');
  const commented = useMemo(
    () =>
      Object.keys(counts)
        .filter((id) => (counts[id] ?? 0) > 0)
        .sort(),
    [counts],
  );
  // The rows' states name the variants shown, which the workspace's data says. Waiting for it put
  // a round of requests before the first rows; the variants this list showed last time in this
  // workspace are kept in the browser, so the first page is asked for at once. A query that
  // changes once the data is read (a variant added elsewhere since) starts the list again.
  const keptStatesKey = `${LIST_STATES_KEY}.${session.workspaceId}`;
  const knownStates = data.loaded !== false ? stateIds : null;
  useEffect(() => {
    if (knownStates === null) return;
    try {
      localStorage.setItem(keptStatesKey, knownStates);
    } catch {
      // A browser that keeps nothing asks for the first page once the data is read.
    }
  }, [keptStatesKey, knownStates]);
  const queryStates = knownStates ?? keptStates(keptStatesKey);
  const rowQuery = useMemo(
    () =>
      projectId && queryStates !== null
        ? rowsQuery({
            projectId,
            blockId: block?.id ?? null,
            filters,
            me,
            states: queryStates ? queryStates.split(',') : [],
            commented,
          })
        : null,
    [projectId, queryStates, block?.id, filters, me, commented],
  );
  const win = useRowWindow(rowQuery);
  // The progress follows the project's list too: its counts are read again when anything changed.
  useEffect(() => {
    if (win.facets) setProgressRound((r) => r + 1);
  }, [win.facets]);
  const wholeProject = projectId ? `projectId=${encodeURIComponent(projectId)}` : null;
  const loadOrderTexts = useCallback(
    async (): Promise<OrderText[]> =>
      wholeProject
        ? (await allRows(wholeProject)).map((r) => ({
            developerId: r.id,
            blockName: r.blockName,
            base: { text: r.text },
          }))
        : [],
    [wholeProject],
  );
  const reloadWindow = win.reload;
  // The list on screen and the open text, read again (after a write).
  const refreshAll = useCallback(async () => {
    await Promise.all([load(), reloadWindow()]);
  }, [load, reloadWindow]);
  useEffect(() => {
    refresher.current = async () => {
      await Promise.all([refreshAll(), loadCounts(), loadSuggestionCounts()]);
    };
  }, [refresher, refreshAll, loadCounts, loadSuggestionCounts]);
  const folderId = isProject ? null : place.componentId ? (openText?.folderId ?? null) : place.folderId;

  const inScope = useMemo(
    () => texts.filter((t) => (isProject ? !block || t.blockName === block.name : (t.folderId ?? null) === folderId)),
    [texts, isProject, block, folderId],
  );

  const facts = useMemo(() => {
    const base = new Map<string, Record2>();
    for (const r of records) if (r.variantId === null && r.pluralForm === null) base.set(r.id, r);
    return new Map(
      inScope.map((t): [string, Facts] => {
        const r = base.get(t.developerId);
        const states: Record<string, string> = { ...(r?.translationStates ?? {}) };
        if (!r?.translationStates)
          for (const v of data.variants) states[v.id] = t.variants.has(v.id) ? 'upToDate' : 'missing';
        return [
          t.developerId,
          {
            status: t.base.status,
            assignee: t.base.assignee,
            tags: t.tags,
            integrated: r?.integrated ?? false,
            plurals: t.base.plurals.length > 0,
            variables: (r?.variableIds.length ?? 0) > 0 || placeholders(t.base.text).length > 0,
            text: t.base.text,
            developerId: t.developerId,
            name: t.name,
            states,
            openComments: counts[t.developerId] ?? 0,
          },
        ];
      }),
    );
  }, [records, inScope, data.variants, counts]);

  const visible = useMemo(
    () =>
      inScope.filter((t) => {
        const f = facts.get(t.developerId);
        return f ? passesAll(filters, f, me) : true;
      }),
    [inScope, facts, filters, me],
  );

  const stateMarks = (t: ListItem): [string, string][] =>
    variants.map((v) => [
      v.name,
      (isProject ? rowStates.get(t.developerId)?.[v.id] : facts.get(t.developerId)?.states[v.id]) ?? 'missing',
    ]);
  // A project's rows say their states themselves; the library's come from the facts.
  const rowStates = new Map<string, Record<string, string>>();
  const itemOfRow = (row: ListRow | undefined): ListItem | undefined => {
    if (!row) return undefined;
    rowStates.set(row.id, row.states);
    return { developerId: row.id, text: row.text, name: null, blockName: row.blockName, status: row.status };
  };
  const itemOfText = (t: Text | undefined): ListItem | undefined =>
    t && { developerId: t.developerId, text: t.base.text, name: t.name, blockName: t.blockName, status: t.base.status };

  const filterCounts: FilterCounts = useMemo(() => {
    if (!isProject) return countsOfFacts([...facts.values()], filters, me);
    const f = win.facets;
    const of = (group: string, value: string) => f?.[group]?.values[value] ?? 0;
    return {
      tags: Object.keys(f?.tags?.values ?? {}),
      count: (group: FilterGroup, value: string | boolean | null) => {
        if (group === 'comments') return commented.length;
        if (value === null) return f?.[group]?.total ?? 0;
        if (group === 'assignee') return of('assignee', value === 'me' ? me : String(value));
        return of(group, String(value));
      },
    };
  }, [isProject, facts, filters, me, win.facets, commented]);

  const query = filtersQuery(filters);
  const withQuery = (url: string) => (query ? `${url}?${query}` : url);
  const listPlaceUrl = () =>
    isProject
      ? withQuery(
          block
            ? `/projects/${encodeURIComponent(place.projectId)}/blocks/${encodeURIComponent(block.id)}`
            : projectUrl(place.projectId),
        )
      : withQuery(folderUrl(folderId));
  const openUrl = (id: string) => withQuery(isProject ? textUrl(place.projectId, id) : componentUrl(id));

  const list = isProject
    ? {
        count: win.total ?? 0,
        itemAt: (i: number) => itemOfRow(win.rowAt(i)),
        indexOf: win.indexOf,
      }
    : {
        count: visible.length,
        itemAt: (i: number) => itemOfText(visible[i]),
        indexOf: (id: string) => visible.findIndex((t) => t.developerId === id),
      };

  const toggle = (id: string, range: boolean) => {
    setSelection((current) => {
      const next = new Set(current);
      const from = anchor.current ? list.indexOf(anchor.current) : -1;
      const to = list.indexOf(id);
      if (range && from !== -1 && to !== -1) {
        // The rows between that the list holds (a window of a project: those read so far).
        for (let i = Math.min(from, to); i <= Math.max(from, to); i += 1) {
          const item = list.itemAt(i);
          if (item) next.add(item.developerId);
        }
      } else if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
    if (!range) anchor.current = id;
  };

  const selectAll = async () => {
    if (!isProject) return setSelection(new Set(visible.map((t) => t.developerId)));
    if (rowQuery) setSelection(new Set((await allRows(rowQuery)).map((r) => r.id)));
  };

  const selected = isProject ? [...selection] : visible.map((t) => t.developerId).filter((id) => selection.has(id));
  const ready = isProject ? win.total !== null : loadedFor === listUrl;
  const title = isProject
    ? `${data.projects.find((p) => p.id === place.projectId)?.name ?? place.projectId}${block ? ` / ${block.name}` : ''}`
    : folderId
      ? (data.folders.find((f) => f.id === folderId)?.name ?? folderId)
      : 'Library root';

  const onEditorKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      o.go(listPlaceUrl());
      window.setTimeout(() => listRef.current?.focus(), 0);
    }
  };

  // Who else has which of these texts open (web/src/events.ts).
  const presence = usePresence();
  const kind = isProject ? 'textItem' : 'component';
  const present = (id: string) =>
    presence
      .filter((p) => p.kind === kind && p.id === id)
      .map((p) => {
        const name = data.users.find((u) => u.email === p.email)?.name;
        return { key: p.clientId, initials: initialsOf(name, p.email), name: name || p.email };
      });

  const listView = (
    <TextList
      ref={listRef}
      count={list.count}
      itemAt={list.itemAt}
      indexOf={list.indexOf}
      onRange={isProject ? win.showRange : undefined}
      open={openId}
      active={active}
      selection={selection}
      states={variants.length ? stateMarks : undefined}
      statusName={(id) => data.statuses.find((s) => s.id === id)?.name ?? id}
      openComments={(id) => counts[id] ?? 0}
      openSuggestions={(id) => suggestionCounts[id] ?? 0}
      present={present}
      onActive={setActive}
      onOpen={(id) => o.go(openUrl(id))}
      onToggle={toggle}
    />
  );

  return (
    <main className={`columns${openText ? ' has-open' : ''}`}>
      <section className="list" aria-label="Texts">
        <div className="list-head">
          <h1>{title}</h1>
          {isProject ? (
            block ? (
              <BlockTools o={o} projectId={place.projectId} block={block} canEdit={canEdit} />
            ) : (
              <ProjectTools o={o} projectId={place.projectId} canEdit={canEdit} />
            )
          ) : (
            <FolderTools o={o} folderId={folderId} canEdit={canEdit} />
          )}
          <TranslateMissing
            projectId={projectId}
            folderId={folderId}
            data={data}
            canEdit={canEdit}
            onProgress={loadProgress}
          />
          {progress && progress.length > 0 && (
            <ul className="progress" aria-label="Translation progress">
              {progress.map((p) => {
                const name = data.variants.find((v) => v.id === p.variantId)?.name ?? p.variantId;
                const pct = p.total ? Math.round((p.upToDate / p.total) * 100) : 100;
                return (
                  <li key={p.variantId}>
                    <span className="bar" aria-hidden="true">
                      <span style={{ width: `${pct}%` }} />
                    </span>
                    {name}: {p.upToDate} of {p.total} up to date ({pct}%)
                    {p.outdated ? `, ${p.outdated} outdated` : ''}
                    {p.missing ? `, ${p.missing} missing` : ''}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <FilterPanel filters={filters} counts={filterCounts} data={data} onChange={setFilters} />
        <div className="list-tools">
          <span className="muted" role="status">
            {!ready
              ? 'Loading…'
              : isProject
                ? `${win.total} ${win.total === 1 ? 'text' : 'texts'}${filtersQuery(filters) ? (win.total === 1 ? ' matches the filters' : ' match the filters') : ''}`
                : `${visible.length} of ${inScope.length} shown`}
          </span>
          <button type="button" onClick={() => void selectAll()} disabled={list.count === 0}>
            Select all
          </button>
        </div>
        {selected.length > 0 && (
          <BulkBar
            o={o}
            kind={isProject ? 'textItem' : 'component'}
            projectId={projectId}
            ids={selected}
            canEdit={canEdit}
            onClear={() => setSelection(new Set())}
          />
        )}
        {(listError || win.error) && (
          <p role="alert" className="error">
            {listError ?? win.error}
          </p>
        )}
        {isProject ? (
          <ArrangeProject
            key={place.projectId}
            projectId={place.projectId}
            loadTexts={loadOrderTexts}
            version={win.facets}
            canEdit={canEdit}
            onChanged={refreshAll}
          >
            {listView}
          </ArrangeProject>
        ) : (
          listView
        )}
      </section>
      {openText ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: Esc anywhere in the open text closes it.
        <div className="editor-pane" onKeyDown={onEditorKey}>
          <div className="phone-head">
            <button type="button" className="back" onClick={() => o.go(listPlaceUrl())}>
              Back to the list
            </button>
            <h1>{title}</h1>
          </div>
          {isProject ? (
            <TextTools o={o} text={openText} projectId={place.projectId} blocks={blocks} canEdit={canEdit} />
          ) : (
            <ComponentTools o={o} text={openText} canEdit={canEdit} />
          )}
          <ErrorBoundary key={`${openText.kind}:${openText.developerId}`} what="This text">
            <Editor
              text={openText}
              data={data}
              canEdit={canEdit}
              session={session}
              focusThread={focusThread}
              focusSuggestion={focusSuggestion}
              openThreads={counts[openText.developerId] ?? 0}
              openSuggestions={suggestionCounts[openText.developerId] ?? 0}
              onCommented={() => void loadCounts()}
              onSuggestionsChanged={() => {
                void loadSuggestionCounts();
                void refreshAll();
              }}
              onSaved={async () => {
                await refreshAll();
                listRef.current?.focus();
              }}
              onClose={() => {
                o.go(listPlaceUrl());
                // The editor leaves the page: the keyboard goes back to the list it was opened from.
                window.setTimeout(() => listRef.current?.focus(), 0);
              }}
              onOpen={(where, developerId) =>
                o.go(where.kind === 'project' ? textUrl(where.id, developerId) : componentUrl(developerId))
              }
            />
          </ErrorBoundary>
        </div>
      ) : (
        <div className="editor-pane empty">
          <p className="muted">
            {openId && (isProject ? loadedFor === listUrl : ready)
              ? `No text ${openId} here: it may have been deleted or moved.`
              : `Open a text from the list to ${openPurpose(session.role)} it. J and K (or the arrow keys) move through the list, Enter opens.`}
          </p>
        </div>
      )}
    </main>
  );
}
