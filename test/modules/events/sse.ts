import type { App } from '../../../src/app.js';
import { waitFor } from '../../helpers/wait.js';

/** One server-sent event as a browser's EventSource would dispatch it. */
export interface SseEvent {
  /** The event's own `id` field, when it has one. */
  id: string | null;
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: Headers;
  /** Every event received so far, in order. */
  events: SseEvent[];
  /** Comment lines (heartbeats) received so far. */
  comments: number;
  /** The reconnection delay the server asked for (its `retry:` field), or null. */
  retry: number | null;
  /** Whether the server ended the stream. */
  ended: () => boolean;
  /** The events named `event` received so far, their data parsed. */
  of: (event: string) => any[];
  /** Waits until an event satisfying `match` arrived; answers it (parsed). */
  next: (event: string, match?: (data: any) => boolean, what?: string) => Promise<any>;
  close: () => void;
}

/** The base URL of `app`, listening on a free loopback port (once; closed with the app). */
export async function listening(app: App): Promise<string> {
  const address = app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const now = app.server.address();
  if (!now || typeof now === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${now.port}`;
}

/**
 * Opens `GET /v2/events` over a real connection and parses what arrives, as EventSource does
 * (fields per line, an event per blank line, comments counted). The body is read as it comes:
 * an event that sits in a buffer somewhere on the way never arrives here.
 */
export async function openEvents(base: string, headers: Record<string, string>, query = ''): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(`${base}/v2/events${query}`, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  let comments = 0;
  let retry: number | null = null;
  let done = false;
  const client: SseClient = {
    status: res.status,
    headers: res.headers,
    events,
    get comments() {
      return comments;
    },
    get retry() {
      return retry;
    },
    ended: () => done,
    of: (event) => events.filter((e) => e.event === event).map((e) => JSON.parse(e.data)),
    async next(event, match = () => true, what = event) {
      let found: any;
      await waitFor(() => {
        found = client.of(event).find(match);
        return found !== undefined || done;
      }, what);
      if (found === undefined) throw new Error(`the stream ended before ${what}`);
      return found;
    },
    close: () => abort.abort(),
  };
  if (res.status !== 200 || !res.body) {
    // A refusal's body is read, so its connection is not left waiting for a reader.
    const text = await res.text();
    events.push({ id: null, event: 'refusal', data: JSON.stringify(text) });
    done = true;
    return client;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let current: { id: string | null; event: string; data: string[] } = { id: null, event: 'message', data: [] };
  void (async () => {
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += value;
        let newline = buffer.indexOf('\n');
        while (newline !== -1) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf('\n');
          if (line === '') {
            if (current.data.length > 0)
              events.push({ id: current.id, event: current.event, data: current.data.join('\n') });
            current = { id: null, event: 'message', data: [] };
          } else if (line.startsWith(':')) comments += 1;
          else {
            const colon = line.indexOf(':');
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') current.id = value;
            else if (field === 'event') current.event = value;
            else if (field === 'data') current.data.push(value);
            else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
          }
        }
      }
    } catch {
      // Aborted by the test.
    } finally {
      done = true;
    }
  })();
  return client;
}
