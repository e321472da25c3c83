import { useCallback, useEffect, useRef, useState } from 'react';
import { AppLink } from './AppLink';
import { api } from './api';
import { DeletedThread } from './CommentsPanel';
import type { Person } from './comments';
import { useLiveRead } from './events';
import type { Text } from './model';
import { describe, type Notification, notificationUrl } from './notifications';
import './inbox.css';

/** How often the bell asks for the unread count (one indexed count). */
const BELL_POLL_MS = 5000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) || iso;

/** Marks notifications read (`ids`) or all of them; answers the unread count left. */
const markRead = (body: { ids: string[] } | { all: true }) =>
  api.post<{ updated: number; unread: number }>('notifications/read', body);

/** The bell in the top bar: the unread count, linking to the inbox. `round` reads it again at once. */
export function InboxBell({ go, current, round }: { go: (to: string) => void; current: boolean; round: number }) {
  const [unread, setUnread] = useState(0);
  // Answers of reads asked before the latest are dropped (a slow one must not undo a newer count).
  const asked = useRef(0);
  const read = useCallback(() => {
    void round;
    const mine = ++asked.current;
    api
      .get<{ unread: number }>('notifications/unread-count')
      .then((r) => mine === asked.current && setUnread(r.unread))
      .catch(() => undefined);
  }, [round]);
  // Any write may notify this person (a mention, an assignment, a decided suggestion): the count
  // is read again after each, through the live stream, and polled only while the stream is down.
  useLiveRead(read, { pollMs: BELL_POLL_MS });
  const label = unread ? `Inbox, ${unread} unread` : 'Inbox';
  return (
    <AppLink to="/inbox" go={go} current={current ? 'page' : undefined} className="bell">
      <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" className="bell-icon">
        <path d="M12 3a6 6 0 0 0-6 6v4l-2 3v1h16v-1l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0z" fill="currentColor" />
      </svg>
      <span className="visually-hidden">{label}</span>
      {unread > 0 && (
        <span className="bell-count" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </AppLink>
  );
}

/**
 * The inbox: the signed-in person's notifications, newest first, 50 at a time; each links to its
 * text (and thread or suggestion), and opening it marks it read. Mark read one by one or all.
 */
export function InboxPage({
  go,
  onlyUnread,
  setOnlyUnread,
  statusName,
  onRead,
  users,
}: {
  go: (to: string) => void;
  /** The workspace's people: names for a deleted text's thread. */
  users: Person[];
  onlyUnread: boolean;
  setOnlyUnread: (on: boolean) => void;
  statusName: (id: string) => string;
  /** After a mark read: the bell follows. */
  onRead: () => void;
}) {
  const [items, setItems] = useState<Notification[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = `notifications?limit=50${onlyUnread ? '&unread=true' : ''}`;
  const load = useCallback(
    async (cursor: string | null = null) => {
      try {
        const page = await api.get<{ notifications: Notification[]; nextCursor: string | null }>(
          `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        setItems((before) => (cursor && before ? [...before, ...page.notifications] : page.notifications));
        setNext(page.nextCursor);
        setError(null);
      } catch (e) {
        setError(messageOf(e));
      }
    },
    [query],
  );
  useEffect(() => void load(), [load]);

  const read = async (body: { ids: string[] } | { all: true }) => {
    try {
      await markRead(body);
      const ids = 'ids' in body ? new Set(body.ids) : null;
      setItems((list) => list?.map((n) => (!ids || ids.has(n.id) ? { ...n, read: true } : n)) ?? list);
      onRead();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const open = (n: Notification) => {
    if (!n.read) void read({ ids: [n.id] });
    go(notificationUrl(n));
  };
  const unread = items?.filter((n) => !n.read).length ?? 0;

  return (
    <main className="page inbox">
      <h1>Inbox</h1>
      <div className="inbox-tools">
        <label className="check">
          <input type="checkbox" checked={onlyUnread} onChange={(e) => setOnlyUnread(e.target.checked)} /> Unread only
        </label>
        <button type="button" disabled={unread === 0} onClick={() => void read({ all: true })}>
          Mark all read
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!items && !error && <p aria-busy="true">Loading…</p>}
      {items?.length === 0 && (
        <p className="muted">
          {onlyUnread
            ? 'Nothing unread.'
            : 'No notifications yet: mentions, replies, assignments, suggestions and status changes of texts you follow come here.'}
        </p>
      )}
      <ol className="notifications" aria-label="Notifications list">
        {items?.map((n) => (
          <li key={n.id} className={n.read ? 'read' : 'unread'}>
            <p>
              {!n.read && <span className="visually-hidden">Unread: </span>}
              {n.recordDeleted && n.threadId ? (
                // Its text is gone, so a link would open "No text here": the thread shows below instead.
                describe(n, statusName)
              ) : (
                <a
                  href={notificationUrl(n)}
                  onClick={(event) => {
                    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                    event.preventDefault();
                    open(n);
                  }}
                >
                  {describe(n, statusName)}
                </a>
              )}
              {n.recordDeleted && <span className="muted"> (deleted since)</span>}
            </p>
            {n.recordDeleted && n.threadId && (
              <DeletedThread
                threadId={n.threadId}
                users={users}
                onOpen={() => (n.read ? undefined : void read({ ids: [n.id] }))}
              />
            )}
            <p className="muted">
              <time dateTime={n.at}>{when(n.at)}</time>
              {!n.read && (
                <>
                  {' · '}
                  <button type="button" className="link-button" onClick={() => void read({ ids: [n.id] })}>
                    Mark read<span className="visually-hidden">: {describe(n, statusName)}</span>
                  </button>
                </>
              )}
            </p>
          </li>
        ))}
      </ol>
      {next && (
        <button type="button" onClick={() => void load(next)}>
          Older notifications
        </button>
      )}
    </main>
  );
}

/** Follow the open text: its status changes come to the inbox. A PUT or DELETE of one follow. */
export function FollowToggle({ text }: { text: Text }) {
  const key = text.kind === 'component' ? 'componentId' : 'textItemId';
  const [following, setFollowing] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api
      .get<{ follows: unknown[] }>(`follows?${key}=${encodeURIComponent(text.developerId)}`)
      .then((r) => live && setFollowing(r.follows.length > 0))
      .catch(() => live && setFollowing(null));
    return () => {
      live = false;
    };
  }, [key, text.developerId]);
  if (following === null) return null;
  const toggle = async () => {
    const body = { follows: [{ [key]: text.developerId }] };
    try {
      if (following) await api.delete('follows', body);
      else await api.put('follows', body);
      setFollowing(!following);
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <>
      <button type="button" className="follow" aria-pressed={following} onClick={() => void toggle()}>
        {following ? 'Following' : 'Follow'}
      </button>
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </>
  );
}
