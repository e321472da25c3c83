import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { ErrorText, messageOf, useAction } from './common';
import { EVENTS, type Webhook } from './Webhooks';

interface Attempt {
  id: string;
  deliveryId: string;
  webhookId: string;
  event: string;
  attempt: number;
  at: string | null;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  nextAttemptAt: string | null;
  state: 'pending' | 'succeeded' | 'retrying' | 'failed';
  responseBody: string | null;
}

const STATES = ['pending', 'succeeded', 'retrying', 'failed'] as const;
const PAGE = 25;

interface Filters {
  webhookId: string;
  event: string;
  status: string;
}

const query = (filters: Filters, cursor: string | null) => {
  const params = new URLSearchParams({ limit: String(PAGE) });
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (cursor) params.set('cursor', cursor);
  return `webhooks/deliveries?${params}`;
};

/**
 * The delivery log, newest attempt first, filtered by webhook, event and state, a page at a time
 * (the API's opaque cursor). Redeliver queues a new attempt of that delivery; the log then shows
 * it as pending until the worker sends it.
 */
export function Deliveries({ webhooks, round }: { webhooks: Webhook[]; round: number }) {
  const [filters, setFilters] = useState<Filters>({ webhookId: '', event: '', status: '' });
  const [attempts, setAttempts] = useState<Attempt[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const redeliver = useAction();

  // Each read takes a number; an answer is shown only if no read began after it, so a slow first
  // page can never replace the list a later click ("Older attempts", another filter) shows.
  const reads = useRef(0);
  const load = useCallback(async (f: Filters) => {
    const read = ++reads.current;
    try {
      const page = await api.get<{ deliveries: Attempt[]; nextCursor: string | null }>(query(f, null));
      if (read !== reads.current) return;
      setAttempts(page.deliveries);
      setNext(page.nextCursor);
      setLoadError(null);
    } catch (e) {
      setLoadError(messageOf(e));
    }
  }, []);
  useEffect(() => {
    void round;
    void load(filters);
  }, [load, filters, round]);

  const more = async () => {
    const read = ++reads.current;
    try {
      const page = await api.get<{ deliveries: Attempt[]; nextCursor: string | null }>(query(filters, next));
      if (read !== reads.current) return;
      setAttempts((a) => [...a, ...page.deliveries]);
      setNext(page.nextCursor);
    } catch (e) {
      setLoadError(messageOf(e));
    }
  };
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFilters({
      webhookId: String(form.get('webhookId') ?? ''),
      event: String(form.get('event') ?? ''),
      status: String(form.get('status') ?? ''),
    });
  };

  return (
    <div className="deliveries">
      <h3 id="deliveries-heading">Delivery log</h3>
      <form className="inline" aria-label="Filter deliveries" onSubmit={onFilter}>
        <label>
          Webhook
          <select name="webhookId" defaultValue="">
            <option value="">All webhooks</option>
            {webhooks.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Event
          <select name="event" defaultValue="">
            <option value="">All events</option>
            {EVENTS.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select name="status" defaultValue="">
            <option value="">Any state</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show</button>
        <button type="button" onClick={() => void load(filters)}>
          Refresh
        </button>
      </form>
      <ErrorText error={loadError} />
      <ErrorText error={redeliver.error} />
      {notice && <p role="status">{notice}</p>}
      {attempts.length === 0 ? (
        <p className="muted">No deliveries.</p>
      ) : (
        <table aria-labelledby="deliveries-heading">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Webhook</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">State</th>
              <th scope="col">Response</th>
              <th scope="col">Time</th>
              <th scope="col">Again</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((a) => (
              <tr key={a.id}>
                <td>
                  {a.at
                    ? new Date(a.at).toLocaleString()
                    : `due ${a.nextAttemptAt ? new Date(a.nextAttemptAt).toLocaleTimeString() : ''}`}
                </td>
                <td>{a.webhookId}</td>
                <td>{a.event}</td>
                <td>{a.attempt}</td>
                <td className={`state-${a.state}`}>{a.state}</td>
                <td>
                  {a.statusCode ?? ''}
                  {a.error && a.error !== `HTTP ${a.statusCode}` ? ` ${a.error}` : ''}
                  {a.responseBody && (
                    <details>
                      <summary>
                        Answer<span className="visually-hidden"> to attempt {a.id}</span>
                      </summary>
                      <pre className="answer">{a.responseBody}</pre>
                    </details>
                  )}
                </td>
                <td>{a.durationMs === null ? '' : `${a.durationMs} ms`}</td>
                <td>
                  <button
                    type="button"
                    disabled={redeliver.busy}
                    onClick={async () => {
                      const ok = await redeliver.run(() =>
                        api.post('webhooks/deliveries/redeliver', { ids: [a.deliveryId] }),
                      );
                      if (ok) {
                        setNotice(`Delivery ${a.deliveryId} (${a.event}) queued again.`);
                        await load(filters);
                      }
                    }}
                  >
                    Redeliver
                    <span className="visually-hidden">
                      {' '}
                      {a.event} #{a.deliveryId}, attempt {a.attempt}
                    </span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && (
        <button type="button" onClick={() => void more()}>
          Older attempts
        </button>
      )}
    </div>
  );
}
