import { useEffect, useState } from 'react';
import { AppLink } from './AppLink';
import { api } from './api';

export interface SearchHit {
  kind: 'textItem' | 'component';
  developerId: string;
  name: string | null;
  projectId: string | null;
  folderId: string | null;
  text: string;
}

const hitUrl = (hit: SearchHit) =>
  hit.kind === 'textItem'
    ? `/projects/${encodeURIComponent(hit.projectId ?? '')}/texts/${encodeURIComponent(hit.developerId)}`
    : `/library/components/${encodeURIComponent(hit.developerId)}`;

function useSearchHits(q: string, delay: number): SearchHit[] | null {
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  useEffect(() => {
    if (!q.trim()) {
      setHits(null);
      return;
    }
    const timer = window.setTimeout(() => {
      api
        .get<{ results: SearchHit[] }>(`search?q=${encodeURIComponent(q)}`)
        .then((r) => setHits(r.results))
        .catch(() => setHits([]));
    }, delay);
    return () => window.clearTimeout(timer);
  }, [q, delay]);
  return hits;
}

/**
 * Search across text items and components as one types; a result opens the text beside its
 * list, Enter shows every result on the search page (`/search?q=…`, a link one can share).
 */
export function SearchBox({ onOpen, onSearch }: { onOpen: (hit: SearchHit) => void; onSearch: (q: string) => void }) {
  const [q, setQ] = useState('');
  const hits = useSearchHits(q, 250);
  return (
    <form
      className="search"
      onSubmit={(event) => {
        event.preventDefault();
        if (!q.trim()) return;
        onSearch(q.trim());
        setQ('');
      }}
    >
      <input
        type="search"
        aria-label="Search texts"
        placeholder="Search texts…"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setQ('');
        }}
      />
      {hits && (
        <ul className="search-results" aria-label="Search results">
          {hits.length === 0 && <li className="muted">Nothing found</li>}
          {hits.map((hit) => (
            <li key={`${hit.kind}:${hit.developerId}`}>
              <button
                type="button"
                onClick={() => {
                  setQ('');
                  onOpen(hit);
                }}
              >
                <strong>{hit.name ?? hit.developerId}</strong>{' '}
                <span className="muted">{hit.kind === 'component' ? 'component' : hit.projectId}</span>
                <br />
                {hit.text}
              </button>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

/** `/search?q=…`: every result, each a link to the text in its list. */
export function SearchPage({ q, go }: { q: string; go: (to: string) => void }) {
  const hits = useSearchHits(q, 0);
  return (
    <main className="page">
      <h1>Search: {q}</h1>
      {hits === null ? (
        <p className="muted">{q ? 'Searching…' : 'Type in the search box above.'}</p>
      ) : hits.length === 0 ? (
        <p>Nothing found.</p>
      ) : (
        <ul className="search-page" aria-label="All search results">
          {hits.map((hit) => (
            <li key={`${hit.kind}:${hit.developerId}`}>
              <AppLink to={hitUrl(hit)} go={go}>
                <strong>{hit.name ?? hit.developerId}</strong>
              </AppLink>{' '}
              <span className="muted">{hit.kind === 'component' ? 'component' : `in ${hit.projectId}`}</span>
              <div>{hit.text}</div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
