/**
 * The live event stream (`GET /v2/events`, docs/events.md) for the whole app: one EventSource per
 * tab, opened once someone is signed in. What it delivers, pages apply through `useLiveChanges`
 * (a write somewhere: read again what you show) and `usePresence` (who has which text open).
 * While the stream is down the pages keep polling (`live.connected()` says whether they need to).
 *
 * A dropped connection is resumed by the browser with `Last-Event-ID`, so the server sends every
 * write since, none missing; a stream the server refused (a 401 after signing out, a 429) is
 * opened again here after a pause, from the last event seen.
 */
import { useEffect, useRef, useState } from 'react';
import { currentCsrfToken, request } from './api';

export interface LiveChange {
  kind: string;
  developerId: string;
  variantId: string | null;
  action: string;
  fields: Record<string, { before: unknown; after: unknown }>;
}

/** One write, or `null` for "anything may have changed: read everything again" (a reset, a reconnect). */
export interface LiveWrite {
  revision: string;
  at: string;
  actor: string;
  changes: LiveChange[];
  truncated?: boolean;
}

export interface PresenceEntry {
  email: string;
  clientId: string;
  kind: 'textItem' | 'component';
  id: string;
  expiresAt: string;
}

type ChangeListener = (write: LiveWrite | null) => void;
type PresenceListener = (entries: PresenceEntry[]) => void;

/** This tab's own id, so its own presence is told apart from the same person's other tabs. */
export const CLIENT_ID = `tab-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

/** A heartbeat this often keeps the open text's entry (the server keeps it 15 s after the last). */
const HEARTBEAT_MS = 4000;
/** After a refusal, the stream is tried again this much later. */
const RETRY_MS = 3000;

function createLive() {
  const changeListeners = new Set<ChangeListener>();
  const presenceListeners = new Set<PresenceListener>();
  let source: EventSource | null = null;
  let ready = false;
  let everReady = false;
  let lastId: string | null = null;
  let retry: number | null = null;
  let presence: PresenceEntry[] = [];
  let started = false;

  const tell = (write: LiveWrite | null) => {
    for (const listener of [...changeListeners]) listener(write);
  };

  function open(): void {
    if (typeof EventSource === 'undefined') return;
    const url = lastId === null ? '/v2/events' : `/v2/events?lastEventId=${encodeURIComponent(lastId)}`;
    const next = new EventSource(url, { withCredentials: true });
    source = next;
    next.addEventListener('ready', () => {
      // The first stream opens as the page makes its first reads: reading everything again then
      // would read a large list twice. After a reconnection, whatever happened while the stream
      // was down (and was not replayed) is read again.
      if (ready || everReady) tell(null);
      ready = true;
      everReady = true;
    });
    next.addEventListener('change', (event) => {
      const message = event as MessageEvent<string>;
      if (message.lastEventId) lastId = message.lastEventId;
      try {
        tell(JSON.parse(message.data) as LiveWrite);
      } catch {
        tell(null);
      }
    });
    next.addEventListener('reset', (event) => {
      const message = event as MessageEvent<string>;
      if (message.lastEventId) lastId = message.lastEventId;
      tell(null);
    });
    next.addEventListener('presence', (event) => {
      try {
        presence = (JSON.parse((event as MessageEvent<string>).data) as { presence: PresenceEntry[] }).presence;
      } catch {
        return;
      }
      for (const listener of [...presenceListeners]) listener(presence);
    });
    next.addEventListener('error', () => {
      ready = false;
      // CONNECTING: the browser resumes by itself. CLOSED: it gave up (a refusal): again later.
      if (next.readyState === EventSource.CLOSED && source === next) {
        source = null;
        retry ??= window.setTimeout(() => {
          retry = null;
          if (started) open();
        }, RETRY_MS);
      }
    });
  }

  return {
    start(): void {
      if (started) return;
      started = true;
      open();
    },
    stop(): void {
      started = false;
      ready = false;
      everReady = false;
      source?.close();
      source = null;
      if (retry !== null) window.clearTimeout(retry);
      retry = null;
      presence = [];
    },
    /** Whether changes arrive live now: polling can rest. */
    connected: () => ready && source?.readyState === EventSource.OPEN,
    onChange(listener: ChangeListener): () => void {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    onPresence(listener: PresenceListener): () => void {
      presenceListeners.add(listener);
      listener(presence);
      return () => presenceListeners.delete(listener);
    },
  };
}

export const live = createLive();

/**
 * Calls `apply` for every write that arrives (and with null when everything may have changed),
 * at most once per animation frame's worth of bursts: a bulk write of many events reads once.
 */
export function useLiveChanges(apply: (write: LiveWrite | null) => void): void {
  const latest = useRef(apply);
  latest.current = apply;
  useEffect(() => {
    let queued: LiveWrite | null | undefined;
    let timer: number | null = null;
    const off = live.onChange((write) => {
      // Several writes in one burst: one "read again" for all of them.
      queued = queued === undefined ? write : null;
      timer ??= window.setTimeout(() => {
        timer = null;
        const next = queued;
        queued = undefined;
        if (next !== undefined) latest.current(next);
      }, 16);
    });
    return () => {
      off();
      if (timer !== null) window.clearTimeout(timer);
    };
  }, []);
}

/**
 * Keeps a panel's read current: `read` runs when a write of one of `kinds` arrives through the
 * stream (every kind when `kinds` is absent; everything after a reset), and every `pollMs` only
 * while the stream is down. The read itself runs when `read` changes (its inputs changed).
 */
export function useLiveRead(read: () => void, { kinds, pollMs }: { kinds?: readonly string[]; pollMs: number }): void {
  const latest = useRef(read);
  latest.current = read;
  const wanted = kinds?.join(',');
  useEffect(() => {
    read();
    const timer = window.setInterval(() => {
      if (!live.connected()) latest.current();
    }, pollMs);
    return () => window.clearInterval(timer);
  }, [read, pollMs]);
  useLiveChanges((write) => {
    const of = wanted?.split(',');
    if (!of || write === null || write.truncated || write.changes.some((c) => of.includes(c.kind))) latest.current();
  });
}

/** Everyone who has a text open now, this tab's own entry left out. */
export function usePresence(): PresenceEntry[] {
  const [entries, setEntries] = useState<PresenceEntry[]>([]);
  useEffect(
    () =>
      live.onPresence((all) => {
        const others = all.filter((p) => p.clientId !== CLIENT_ID);
        setEntries((before) => (JSON.stringify(before) === JSON.stringify(others) ? before : others));
      }),
    [],
  );
  return entries;
}

/** While mounted, this tab says it has the text open (a heartbeat), and says goodbye when it closes. */
export function useOpenPresence(kind: 'textItem' | 'component', id: string): void {
  useEffect(() => {
    const beat = () =>
      void request('PUT', 'presence', { clientId: CLIENT_ID, kind, id }).catch(() => {
        // Presence is a help: a failed heartbeat is tried again with the next.
      });
    // `keepalive`: the goodbye of a closing tab still goes out.
    const leave = () =>
      void fetch('/v2/presence', {
        method: 'DELETE',
        credentials: 'same-origin',
        keepalive: true,
        headers: { 'content-type': 'application/json', 'x-csrf-token': currentCsrfToken() ?? '' },
        // Naming the text: a goodbye that arrives after the heartbeat for the next text leaves it.
        body: JSON.stringify({ clientId: CLIENT_ID, kind, id }),
      }).catch(() => undefined);
    beat();
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    const onHide = () => leave();
    window.addEventListener('pagehide', onHide);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('pagehide', onHide);
      leave();
    };
  }, [kind, id]);
}

/** A person's initials for their badge: "Eda Editor" → "EE", else the email's first letters. */
export function initialsOf(name: string | undefined, email: string): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return `${words[0]?.[0] ?? ''}${words[words.length - 1]?.[0] ?? ''}`.toUpperCase();
  if (words.length === 1) return (words[0] ?? '').slice(0, 2).toUpperCase();
  return email.slice(0, 2).toUpperCase();
}
