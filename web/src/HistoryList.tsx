import { useEffect, useState } from 'react';
import { api } from './api';

interface Change {
  id: string;
  at: string;
  actor: string;
  kind: string;
  developerId: string;
  variantId: string | null;
  action: string;
  fields: Record<string, { before: unknown; after: unknown }>;
}

const show = (value: unknown) =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** The history of one record, or the workspace's recent changes. */
export function HistoryList({ kind, developerId }: { kind?: string; developerId?: string }) {
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const query = kind && developerId ? `?kind=${kind}&id=${encodeURIComponent(developerId)}` : '?limit=50';
    api
      .get<{ changes: Change[] }>(`history${query}`)
      .then((r) => setChanges(r.changes))
      .catch((e: Error) => setError(e.message));
  }, [kind, developerId]);
  if (error)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (!changes) return <p aria-busy="true">Loading history…</p>;
  return (
    <section
      className={developerId ? 'history' : 'page'}
      aria-label={developerId ? 'History of this text' : 'Recent changes'}
    >
      {!developerId && <h1>Recent changes</h1>}
      {changes.length === 0 && <p className="muted">No changes yet.</p>}
      <ol>
        {changes.slice(0, 50).map((c) => (
          <li key={c.id}>
            <span className="muted">{new Date(c.at).toLocaleString()}</span> {c.actor} {c.action} {c.kind}{' '}
            <code>{c.developerId}</code>
            {c.variantId ? ` (${c.variantId})` : ''}
            <ul>
              {Object.entries(c.fields).map(([field, change]) => (
                <li key={field}>
                  {field}: {show(change.before)} → {show(change.after)}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}
