import { useEffect, useState } from 'react';
import { api } from './api';

export interface SearchHit {
  kind: 'textItem' | 'component';
  developerId: string;
  name: string | null;
  projectId: string | null;
  folderId: string | null;
  text: string;
}

/** Search across text items and components; results open the text beside its list. */
export function SearchBox({ onOpen }: { onOpen: (hit: SearchHit) => void }) {
  const [q, setQ] = useState('');
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
    }, 250);
    return () => window.clearTimeout(timer);
  }, [q]);
  return (
    <div className="search">
      <input
        type="search"
        aria-label="Search texts"
        placeholder="Search texts…"
        value={q}
        onChange={(e) => setQ(e.target.value)}
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
    </div>
  );
}
