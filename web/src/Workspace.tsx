import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { AppLink } from './AppLink';
import { api, type Session } from './api';
import { MentionsPage } from './CommentsPanel';
import { ErrorBoundary } from './ErrorBoundary';
import { ExportPage } from './ExportPage';
import { live, useLiveChanges } from './events';
import { HistoryPage, historyQueryString, parseHistoryQuery } from './HistoryList';
import { ImportPage } from './ImportPage';
import { InboxBell, InboxPage } from './Inbox';
import { type Block, NewFolderButton, NewProjectButton, type Organise, useDialogs } from './Organise';
import { ReleasesPage } from './ReleasesPage';
import { can } from './roles';
import {
  blockUrl,
  type Filters,
  filtersQuery,
  folderUrl,
  type Place,
  parseFilters,
  parsePlace,
  projectUrl,
  recordUrl,
} from './routes';
import { SearchBox, SearchPage } from './SearchBox';
import { Settings } from './Settings';
import { TextsPage } from './TextsPage';
import { useToast } from './Toast';
import { confirmLeave } from './unsaved';
import { PARTS_OF_KIND, useWorkspaceData } from './useWorkspaceData';

/** The kinds of write after which the open project's blocks are read again. */
const BLOCK_KINDS = new Set(['project', 'base', 'block']);

export type Source = { kind: 'project'; id: string } | { kind: 'folder'; id: string | null };

const PAGES = [
  ['texts', 'Texts'],
  ['history', 'History'],
  ['import', 'Import'],
  ['export', 'Export'],
  ['releases', 'Releases'],
  ['comments', 'Mentions'],
  ['settings', 'Settings'],
] as const;

const pageOf = (place: Place) =>
  place.page === 'project' || place.page === 'library' || place.page === 'home' || place.page === 'search'
    ? 'texts'
    : place.page;

export function Workspace({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const data = useWorkspaceData();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const place = useMemo(() => parsePlace(location), [location]);
  const filters = useMemo(() => parseFilters(search), [search]);
  const [dialog, show, close] = useDialogs();
  const { afterUndo } = useToast();
  const canEdit = can(session.role, 'edit');

  const go = useCallback(
    (to: string, replace = false) => {
      if (`${location}${search ? `?${search}` : ''}` === to) return;
      if (!confirmLeave()) return;
      navigate(to, { replace });
    },
    [location, search, navigate],
  );

  // The last list a writer looked at: "Texts" in the navigation goes back to it.
  const lastList = useRef('/');
  if (place.page === 'project' || place.page === 'library')
    lastList.current = `${location}${search ? `?${search}` : ''}`;

  // `/` goes to the first project, or the library when there is none.
  useEffect(() => {
    if (place.page !== 'home' || !data.loaded) return;
    const first = data.projects[0];
    navigate(first ? projectUrl(first.id) : '/library', { replace: true });
  }, [place.page, data.loaded, data.projects, navigate]);

  // The current project's blocks: in the sidebar and for the list's block views.
  const projectId = place.page === 'project' ? place.projectId : null;
  const [blocks, setBlocks] = useState<Block[]>([]);
  const [blocksRound, setBlocksRound] = useState(0);
  useEffect(() => {
    void blocksRound;
    if (!projectId) return setBlocks([]);
    let live = true;
    api
      .get<Block[]>(`projectBlocks?projectId=${encodeURIComponent(projectId)}`)
      .then((list) => live && setBlocks(list))
      .catch(() => live && setBlocks([]));
    return () => {
      live = false;
    };
  }, [projectId, blocksRound]);

  // The bell's count is read again at once after the inbox marks something read.
  const [bellRound, setBellRound] = useState(0);
  const refresher = useRef<() => Promise<void>>(async () => undefined);
  const o: Organise = useMemo(
    () => ({
      data,
      go,
      show,
      close,
      refresh: async () => {
        setBlocksRound((r) => r + 1);
        data.reload();
        await refresher.current();
      },
    }),
    [data, go, show, close],
  );
  useEffect(() => afterUndo(() => void o.refresh()), [afterUndo, o]);

  // Live updates (web/src/events.ts): another person's write is read at once, not at the next poll.
  useEffect(() => {
    live.start();
    return () => live.stop();
  }, []);
  useLiveChanges((write) => {
    void refresher.current();
    // The sidebar's and the settings' reads follow writes of what they show: only the lists
    // that the write's kinds may have changed (all of them after a reset).
    if (write === null || write.truncated) {
      data.reload();
      setBlocksRound((r) => r + 1);
      return;
    }
    const parts = new Set(write.changes.flatMap((c) => PARTS_OF_KIND[c.kind] ?? []));
    if (parts.size > 0) data.reload([...parts]);
    if (write.changes.some((c) => BLOCK_KINDS.has(c.kind))) setBlocksRound((r) => r + 1);
  });

  const setFilters = (next: Filters) => {
    const query = filtersQuery(next);
    navigate(`${location}${query ? `?${query}` : ''}`, { replace: true });
  };

  // `/settings/<section>` opens the settings at that section.
  const section = place.page === 'settings' ? place.section : null;
  useEffect(() => {
    if (!section) return;
    const timer = window.setTimeout(() => document.getElementById(section)?.scrollIntoView(), 300);
    return () => window.clearTimeout(timer);
  }, [section]);

  const page = pageOf(place);
  let body: ReactNode;
  if (place.page === 'project' || place.page === 'library') {
    body = (
      <TextsPage
        place={place}
        filters={filters}
        data={data}
        session={session}
        o={o}
        setFilters={setFilters}
        blocks={blocks}
        refresher={refresher}
        focusThread={new URLSearchParams(search).get('thread')}
        focusSuggestion={new URLSearchParams(search).get('suggestion')}
      />
    );
  } else if (place.page === 'search') {
    body = <SearchPage q={new URLSearchParams(search).get('q') ?? ''} go={go} />;
  } else if (place.page === 'history') {
    const record = place.kind && place.developerId ? { kind: place.kind, developerId: place.developerId } : undefined;
    body = (
      <HistoryPage
        filters={parseHistoryQuery(search)}
        onFiltersChange={(next) => {
          const query = historyQueryString(next);
          go(`${location}${query ? `?${query}` : ''}`, true);
        }}
        {...(record ? { record } : {})}
        onNavigate={(path) => go(path)}
        onOpenRecord={(kind, developerId) => go(recordUrl(kind, developerId))}
        canEdit={canEdit}
      />
    );
  } else if (place.page === 'import') body = <ImportPage data={data} role={session.role} />;
  else if (place.page === 'export') body = <ExportPage data={data} />;
  else if (place.page === 'releases')
    body = <ReleasesPage data={data} role={session.role} workspaceId={session.workspaceId} />;
  else if (place.page === 'comments') {
    const onlyOpen = new URLSearchParams(search).get('open') === 'true';
    body = (
      <MentionsPage
        onlyOpen={onlyOpen}
        go={go}
        users={data.users}
        setOnlyOpen={(on) => go(`/comments?mentions=me${on ? '&open=true' : ''}`, true)}
      />
    );
  } else if (place.page === 'inbox') {
    body = (
      <InboxPage
        go={go}
        onlyUnread={new URLSearchParams(search).get('unread') === 'true'}
        setOnlyUnread={(on) => go(`/inbox${on ? '?unread=true' : ''}`, true)}
        statusName={(id) => data.statuses.find((s) => s.id === id)?.name ?? id}
        onRead={() => setBellRound((r) => r + 1)}
        users={data.users}
      />
    );
  } else if (place.page === 'settings') body = <Settings session={session} data={data} />;
  else if (place.page === 'home')
    body = (
      <main className="page" aria-busy="true">
        Loading…
      </main>
    );
  else
    body = (
      <main className="page">
        <h1>Nothing here</h1>
        <p>
          This address is not a place in copydesk.{' '}
          <AppLink to="/" go={go}>
            Go to the first project
          </AppLink>
          .
        </p>
      </main>
    );

  const showSidebar = page === 'texts';
  return (
    <div className={showSidebar ? 'app app-lists' : 'app'}>
      <header className="topbar">
        <strong className="brand">
          <img src="/favicon.svg" alt="" width="20" height="20" /> copydesk
        </strong>
        <nav aria-label="Pages">
          {PAGES.map(([p, label]) => (
            <AppLink
              key={p}
              to={p === 'texts' ? lastList.current : p === 'comments' ? '/comments?mentions=me' : `/${p}`}
              go={go}
              current={page === p ? 'page' : undefined}
            >
              {label}
            </AppLink>
          ))}
        </nav>
        <SearchBox
          onSearch={(q) => go(`/search?q=${encodeURIComponent(q)}`)}
          onOpen={(hit) =>
            go(
              hit.kind === 'textItem'
                ? `/projects/${encodeURIComponent(hit.projectId ?? '')}/texts/${encodeURIComponent(hit.developerId)}`
                : `/library/components/${encodeURIComponent(hit.developerId)}`,
            )
          }
        />
        <InboxBell go={go} current={place.page === 'inbox'} round={bellRound} />
        <span className="who">
          {session.email} ({session.role})
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      {data.error && (
        <div role="alert" className="error">
          The workspace could not be read: {data.error}{' '}
          <button type="button" onClick={() => data.reload()}>
            Try again
          </button>
        </div>
      )}
      <div
        className={
          showSidebar
            ? `shell${place.page === 'project' && place.textId ? ' text-open' : ''}${place.page === 'library' && place.componentId ? ' text-open' : ''}`
            : 'shell no-sidebar'
        }
      >
        {showSidebar && <Sidebar place={place} blocks={blocks} o={o} canEdit={canEdit} />}
        <ErrorBoundary key={page} what="This page" asPage>
          {body}
        </ErrorBoundary>
      </div>
      {dialog}
    </div>
  );
}

function Sidebar({ place, blocks, o, canEdit }: { place: Place; blocks: Block[]; o: Organise; canEdit: boolean }) {
  const currentProject = place.page === 'project' ? place.projectId : null;
  const currentBlock = place.page === 'project' ? place.blockId : null;
  const currentFolder = place.page === 'library' && !place.componentId ? place.folderId : undefined;
  return (
    <nav className="sidebar" aria-label="Projects and library">
      <h2>Projects</h2>
      <ul>
        {o.data.projects.map((p) => (
          <li key={p.id}>
            <AppLink to={projectUrl(p.id)} go={o.go} current={currentProject === p.id}>
              {p.name}
            </AppLink>
            {currentProject === p.id && blocks.length > 0 && (
              <ul>
                {blocks.map((b) => (
                  <li key={b.id}>
                    <AppLink to={blockUrl(p.id, b.id)} go={o.go} current={currentBlock === b.id} className="block-link">
                      {b.name}
                    </AppLink>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      {canEdit && <NewProjectButton o={o} />}
      <h2>Component library</h2>
      <FolderTree folders={o.data.folders} parent={null} current={currentFolder} go={o.go} />
      {canEdit && <NewFolderButton o={o} parentId={currentFolder ?? null} />}
    </nav>
  );
}

function FolderTree({
  folders,
  parent,
  current,
  go,
}: {
  folders: { id: string; name: string; parentId: string | null }[];
  parent: string | null;
  current: string | null | undefined;
  go: (to: string) => void;
}) {
  const children = folders.filter((f) => f.parentId === parent);
  if (parent !== null && children.length === 0) return null;
  return (
    <ul>
      {parent === null && (
        <li>
          <AppLink to={folderUrl(null)} go={go} current={current === null}>
            Library root
          </AppLink>
        </li>
      )}
      {children.map((f) => (
        <li key={f.id}>
          <AppLink to={folderUrl(f.id)} go={go} current={current === f.id}>
            {f.name}
          </AppLink>
          <FolderTree folders={folders} parent={f.id} current={current} go={go} />
        </li>
      ))}
    </ul>
  );
}
