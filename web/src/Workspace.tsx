import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getIfChanged, type Session, withFilter } from './api';
import { ArrangeProject } from './BlockOrder';
import { Editor } from './Editor';
import { ErrorBoundary } from './ErrorBoundary';
import { ExportPage } from './ExportPage';
import { HistoryList } from './HistoryList';
import { ImportPage } from './ImportPage';
import { type ApiRecord, groupRecords, type Text } from './model';
import { SearchBox } from './SearchBox';
import { Settings } from './Settings';
import { TextList } from './TextList';
import { useWorkspaceData } from './useWorkspaceData';

export type Source = { kind: 'project'; id: string } | { kind: 'folder'; id: string | null };
type Page = 'texts' | 'history' | 'import' | 'export' | 'settings';

/** How often the open list asks whether anything changed (a 304 when nothing did). */
const POLL_MS = 3000;

export function Workspace({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const data = useWorkspaceData();
  const [page, setPage] = useState<Page>('texts');
  const [source, setSource] = useState<Source | null>(null);
  const [texts, setTexts] = useState<Text[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);

  useEffect(() => {
    if (!source && data.projects.length > 0) setSource({ kind: 'project', id: data.projects[0]?.id ?? '' });
  }, [data.projects, source]);

  const listUrl = useMemo(() => {
    if (!source) return null;
    const variants = [{ id: 'all' }];
    if (source.kind === 'project') {
      return withFilter(
        'textItems',
        { projects: [{ id: source.id }], variants },
        '&sort=project_order&richText=html&withEtag=true',
      );
    }
    const folders = [{ id: source.id ?? 'root', excludeNestedFolders: true }];
    return withFilter('components', { folders, variants }, '&richText=html&withEtag=true');
  }, [source]);

  // The ETag of the list on screen: an unchanged list is neither parsed nor rendered again.
  const shown = useRef<{ url: string; etag: string | null } | null>(null);
  const load = useCallback(async () => {
    if (!listUrl || !source) return;
    try {
      const known = shown.current?.url === listUrl ? shown.current.etag : null;
      const read = await getIfChanged<ApiRecord[]>(listUrl, known);
      if (!read) return;
      shown.current = { url: listUrl, etag: read.etag };
      setTexts(groupRecords(read.data, source.kind === 'project' ? 'textItem' : 'component'));
      setListError(null);
    } catch (e) {
      setListError(e instanceof Error ? e.message : String(e));
    }
  }, [listUrl, source]);

  useEffect(() => {
    void load();
    // Every GET revalidates with If-None-Match (api.ts): an unchanged list is a 304 and costs nothing.
    const timer = window.setInterval(() => void load(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  const open = texts.find((t) => t.developerId === selected) ?? null;
  const canEdit = session.role !== 'viewer';

  return (
    <div className="app">
      <header className="topbar">
        <strong className="brand">copydesk</strong>
        <nav aria-label="Pages">
          {(['texts', 'history', 'import', 'export', 'settings'] as Page[]).map((p) => (
            <button key={p} type="button" aria-current={page === p ? 'page' : undefined} onClick={() => setPage(p)}>
              {p[0]?.toUpperCase() + p.slice(1)}
            </button>
          ))}
        </nav>
        <SearchBox
          onOpen={(hit) => {
            setPage('texts');
            setSource(
              hit.kind === 'textItem'
                ? { kind: 'project', id: hit.projectId ?? '' }
                : { kind: 'folder', id: hit.folderId },
            );
            setSelected(hit.developerId);
          }}
        />
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
          <button type="button" onClick={data.reload}>
            Try again
          </button>
        </div>
      )}
      <ErrorBoundary key={page} what="This page">
        {page === 'texts' && (
          <div className="columns">
            <aside className="sidebar" aria-label="Projects and library">
              <h2>Projects</h2>
              <ul>
                {data.projects.map((p) => (
                  <li key={p.id}>
                    <button
                      type="button"
                      aria-current={source?.kind === 'project' && source.id === p.id ? 'true' : undefined}
                      onClick={() => {
                        setSource({ kind: 'project', id: p.id });
                        setSelected(null);
                      }}
                    >
                      {p.name}
                    </button>
                  </li>
                ))}
              </ul>
              <h2>Component library</h2>
              <FolderTree
                folders={data.folders}
                parent={null}
                current={source?.kind === 'folder' ? source.id : undefined}
                onPick={(id) => {
                  setSource({ kind: 'folder', id });
                  setSelected(null);
                }}
              />
            </aside>
            <section className="list" aria-label="Texts">
              {listError && (
                <p role="alert" className="error">
                  {listError}
                </p>
              )}
              {source?.kind === 'project' ? (
                <ArrangeProject key={source.id} projectId={source.id} texts={texts} canEdit={canEdit} onChanged={load}>
                  <TextList texts={texts} selected={selected} onSelect={setSelected} />
                </ArrangeProject>
              ) : (
                <TextList texts={texts} selected={selected} onSelect={setSelected} />
              )}
            </section>
            {open && (
              <ErrorBoundary key={`${open.kind}:${open.developerId}`} what="This text">
                <Editor
                  text={open}
                  data={data}
                  canEdit={canEdit}
                  onSaved={load}
                  onClose={() => setSelected(null)}
                  onOpen={(where, developerId) => {
                    setSource(where);
                    setSelected(developerId);
                  }}
                />
              </ErrorBoundary>
            )}
          </div>
        )}
        {page === 'history' && <HistoryList />}
        {page === 'import' && <ImportPage data={data} canEdit={canEdit} />}
        {page === 'export' && <ExportPage data={data} />}
        {page === 'settings' && <Settings session={session} data={data} />}
      </ErrorBoundary>
    </div>
  );
}

function FolderTree({
  folders,
  parent,
  current,
  onPick,
}: {
  folders: { id: string; name: string; parentId: string | null }[];
  parent: string | null;
  current: string | null | undefined;
  onPick: (id: string | null) => void;
}) {
  const children = folders.filter((f) => f.parentId === parent);
  return (
    <ul>
      {parent === null && (
        <li>
          <button type="button" aria-current={current === null ? 'true' : undefined} onClick={() => onPick(null)}>
            Library root
          </button>
        </li>
      )}
      {children.map((f) => (
        <li key={f.id}>
          <button type="button" aria-current={current === f.id ? 'true' : undefined} onClick={() => onPick(f.id)}>
            {f.name}
          </button>
          {folders.some((c) => c.parentId === f.id) && (
            <FolderTree folders={folders} parent={f.id} current={current} onPick={onPick} />
          )}
        </li>
      ))}
    </ul>
  );
}
