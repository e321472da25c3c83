import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, getIfChanged, type Session, withFilter } from './api';
import { ArrangeProject } from './BlockOrder';
import { BulkBar } from './Bulk';
import { Editor } from './Editor';
import { ErrorBoundary } from './ErrorBoundary';
import { FilterPanel } from './Filters';
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
import {
  componentUrl,
  type Facts,
  type Filters,
  filtersQuery,
  folderUrl,
  type Place,
  passesAll,
  projectUrl,
  textUrl,
} from './routes';
import { type ListHandle, TextList } from './TextList';
import type { WorkspaceData } from './useWorkspaceData';

/** How often the open list asks whether anything changed (a 304 when nothing did). */
const POLL_MS = 3000;
const VARIANTS_KEY = 'copydesk.variants';

type ListPlace = Extract<Place, { page: 'project' } | { page: 'library' }>;
type Record2 = ApiRecord & { translationStates?: Record<string, string> };

/** The variants the writer chose to see beside the base text (up to three), else the first three. */
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
}) {
  const canEdit = session.role !== 'viewer';
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

  const listUrl = useMemo(() => {
    const variants = [{ id: 'all' }];
    const extra = '&richText=html&withEtag=true&withTranslationState=true';
    if (projectId)
      return withFilter('textItems', { projects: [{ id: projectId }], variants }, `&sort=project_order${extra}`);
    // The whole library is read at once, so that a component's link finds its folder.
    return withFilter('components', { variants }, extra);
  }, [projectId]);

  // The ETag of the list on screen: an unchanged list is neither parsed nor rendered again.
  const shown = useRef<{ url: string; etag: string | null } | null>(null);
  const load = useCallback(async () => {
    try {
      const known = shown.current?.url === listUrl ? shown.current.etag : null;
      const read = await getIfChanged<Record2[]>(listUrl, known);
      if (!read) return;
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
    void load();
    // Every GET revalidates with If-None-Match (api.ts): an unchanged list is a 304 and costs nothing.
    const timer = window.setInterval(() => void load(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  const loadProgress = useCallback(async () => {
    const scope = projectId ? `?projectId=${encodeURIComponent(projectId)}` : '';
    api
      .get<Progress[]>(`translationProgress${scope}`)
      .then(setProgress)
      .catch(() => setProgress(null));
  }, [projectId]);
  // The progress follows the list: read again whenever it changed.
  useEffect(() => {
    void records;
    void loadProgress();
  }, [loadProgress, records]);

  useEffect(() => {
    refresher.current = load;
  }, [refresher, load]);

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
          },
        ];
      }),
    );
  }, [records, inScope, data.variants]);

  const me = session.email;
  const visible = useMemo(
    () =>
      inScope.filter((t) => {
        const f = facts.get(t.developerId);
        return f ? passesAll(filters, f, me) : true;
      }),
    [inScope, facts, filters, me],
  );

  const variants = shownVariants(data);
  const stateMarks = (t: Text): [string, string][] =>
    variants.map((v) => [v.name, facts.get(t.developerId)?.states[v.id] ?? 'missing']);

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

  const toggle = (id: string, range: boolean) => {
    setSelection((current) => {
      const next = new Set(current);
      const ids = visible.map((t) => t.developerId);
      const from = anchor.current ? ids.indexOf(anchor.current) : -1;
      const to = ids.indexOf(id);
      if (range && from !== -1 && to !== -1) {
        for (let i = Math.min(from, to); i <= Math.max(from, to); i += 1) next.add(ids[i] ?? '');
      } else if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
    if (!range) anchor.current = id;
  };

  const selected = visible.map((t) => t.developerId).filter((id) => selection.has(id));
  const ready = loadedFor === listUrl;
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

  const list = (
    <TextList
      ref={listRef}
      texts={visible}
      open={openId}
      active={active}
      selection={selection}
      states={variants.length ? stateMarks : undefined}
      statusName={(id) => data.statuses.find((s) => s.id === id)?.name ?? id}
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
        <FilterPanel filters={filters} facts={[...facts.values()]} me={me} data={data} onChange={setFilters} />
        <div className="list-tools">
          <span className="muted" role="status">
            {ready ? `${visible.length} of ${inScope.length} shown` : 'Loading…'}
          </span>
          <button
            type="button"
            onClick={() => setSelection(new Set(visible.map((t) => t.developerId)))}
            disabled={visible.length === 0}
          >
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
        {listError && (
          <p role="alert" className="error">
            {listError}
          </p>
        )}
        {isProject ? (
          <ArrangeProject
            key={place.projectId}
            projectId={place.projectId}
            texts={texts}
            canEdit={canEdit}
            onChanged={load}
          >
            {list}
          </ArrangeProject>
        ) : (
          list
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
              onSaved={async () => {
                await load();
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
            {openId && ready
              ? `No text ${openId} here: it may have been deleted or moved.`
              : 'Open a text from the list to edit it. J and K (or the arrow keys) move through the list, Enter opens.'}
          </p>
        </div>
      )}
    </main>
  );
}
