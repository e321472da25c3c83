/**
 * A project's list as the server pages it (`GET /v2/textItems/rows`, docs/app-list.md): the app
 * holds the pages around what is on screen, never the whole project. Filters, search and sort
 * are the server's; the list knows the total at once and loads the window a scroll (or a drag of
 * the scrollbar to anywhere) brings into view. The poll asks again only for the pages on screen
 * and the filter counts, each with its ETag: a 304 when nothing changed.
 */

import { useCallback, useEffect, useRef, useState } from 'react';
import { api, getIfChanged } from './api';
import { live } from './events';

export { rowsQuery } from './rowsQuery';

/** A row of the list, as the server answers it. */
export interface ListRow {
  id: string;
  text: string;
  status: string;
  assignee: string | null;
  tags: string[];
  blockId: string | null;
  blockName: string | null;
  componentId: string | null;
  plurals: boolean;
  states: Record<string, string>;
}

export type Facets = Record<string, { total: number; values: Record<string, number> }>;

interface RowsPage {
  total: number;
  offset: number;
  rows: ListRow[];
  nextCursor: string | null;
  facets?: Facets;
}

export const PAGE_ROWS = 100;
/** How often the open list asks whether the rows on screen changed (a 304 when nothing did). */
const POLL_MS = 3000;

/** Every row of a list (for the project order panel and "Select all"), page after page by cursor. */
export async function allRows(query: string): Promise<ListRow[]> {
  const out: ListRow[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page: RowsPage = await api.get(`textItems/rows?${query}&limit=500${after}`);
    for (const row of page.rows) out.push(row);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** The pages that hold the rows from `start` to `end`. */
function pagesOf([start, end]: [number, number]): number[] {
  const first = Math.floor(Math.max(0, start) / PAGE_ROWS);
  const last = Math.floor(Math.max(start, end) / PAGE_ROWS);
  const out: number[] = [];
  for (let p = first; p <= last; p += 1) out.push(p);
  return out;
}

export interface RowWindow {
  /** Items that pass the filters; null until the first page answered. */
  total: number | null;
  rowAt: (index: number) => ListRow | undefined;
  indexOf: (id: string) => number;
  facets: Facets | null;
  error: string | null;
  /** The rows on screen changed: load the pages they need. */
  showRange: (start: number, end: number) => void;
  /** Read the window on screen and the counts again (after a write). */
  reload: () => Promise<void>;
}

export function useRowWindow(query: string | null): RowWindow {
  const [total, setTotal] = useState<number | null>(null);
  const [pages, setPages] = useState<ReadonlyMap<number, ListRow[]>>(new Map());
  const [facets, setFacets] = useState<Facets | null>(null);
  const [error, setError] = useState<string | null>(null);
  const range = useRef<[number, number]>([0, PAGE_ROWS]);
  const etags = useRef(new Map<string, string | null>());
  const loading = useRef(new Set<string>());
  const current = useRef(query);
  current.current = query;

  const pageUrl = useCallback(
    (q: string, page: number) => `textItems/rows?${q}&offset=${page * PAGE_ROWS}&limit=${PAGE_ROWS}`,
    [],
  );

  const loadPage = useCallback(
    async (q: string, page: number, force: boolean) => {
      // Keyed by query too: a page still loading for the query before must not hold this one back.
      const key = `${q}#${page}`;
      if (loading.current.has(key) && !force) return;
      loading.current.add(key);
      const url = pageUrl(q, page);
      try {
        const read = await getIfChanged<RowsPage>(url, etags.current.get(url) ?? null);
        if (current.current !== q || !read) return;
        etags.current.set(url, read.etag);
        setTotal(read.data.total);
        setPages((before) => new Map(before).set(page, read.data.rows));
        setError(null);
      } catch (e) {
        if (current.current === q) setError(e instanceof Error ? e.message : String(e));
      } finally {
        loading.current.delete(key);
      }
    },
    [pageUrl],
  );

  const loadFacets = useCallback(async (q: string) => {
    const url = `textItems/rows?${q}&limit=1&facets=true`;
    try {
      const read = await getIfChanged<RowsPage>(url, etags.current.get(url) ?? null);
      if (current.current !== q || !read) return;
      etags.current.set(url, read.etag);
      setFacets(read.data.facets ?? null);
    } catch {
      // The counts are a help: the list stays usable without them.
    }
  }, []);

  const reload = useCallback(async () => {
    const q = current.current;
    if (q === null) return;
    const wanted = pagesOf(range.current);
    // Pages off screen are dropped: they are read again when they come back into view.
    setPages((before) => {
      const kept = new Map([...before].filter(([p]) => wanted.includes(p)));
      return kept.size === before.size ? before : kept;
    });
    await Promise.all([...wanted.map((p) => loadPage(q, p, true)), loadFacets(q)]);
  }, [loadPage, loadFacets]);

  // A new query starts again from the top.
  useEffect(() => {
    setPages(new Map());
    setTotal(null);
    setError(null);
    etags.current.clear();
    if (query === null) return;
    range.current = [0, PAGE_ROWS];
    // Not forced: the list's own effect (a child's, so it runs first) may have asked for the
    // first page already, and a second request for it would take one of the browser's six
    // connections while the page opens.
    void loadPage(query, 0, false);
    void loadFacets(query);
    // While the live stream is up, writes arrive through it (Workspace.tsx reads the window again).
    const timer = window.setInterval(() => {
      if (!live.connected()) void reload();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [query, loadPage, loadFacets, reload]);

  const showRange = useCallback(
    (start: number, end: number) => {
      range.current = [start, end];
      const q = current.current;
      if (q === null) return;
      for (const p of pagesOf(range.current)) if (!pages.has(p)) void loadPage(q, p, false);
    },
    [pages, loadPage],
  );

  const rowAt = useCallback((index: number) => pages.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS], [pages]);
  const indexOf = useCallback(
    (id: string) => {
      for (const [p, rows] of pages) {
        const i = rows.findIndex((r) => r.id === id);
        if (i >= 0) return p * PAGE_ROWS + i;
      }
      return -1;
    },
    [pages],
  );

  return { total, rowAt, indexOf, facets, error, showRange, reload };
}
