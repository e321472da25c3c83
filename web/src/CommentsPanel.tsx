import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { AppLink } from './AppLink';
import { api, messageOf, type Session } from './api';
import {
  anchorRange,
  type Comment,
  type CommentRange,
  groupThreads,
  insertMention,
  isDetached,
  mayChange,
  mentionAt,
  nameOf,
  type PassageMark,
  type Person,
  passageMarks,
  suggestPeople,
  type Thread,
  threadUrl,
} from './comments';
import { useLiveRead } from './events';
import type { Text } from './model';
import { can } from './roles';
import { setUnsaved } from './unsaved';
import type { WorkspaceData } from './useWorkspaceData';
import './comments.css';

/** How often the open text's threads ask whether anything changed (a 304 when nothing did). */
const POLL_MS = 3000;

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) || iso;

/** A passage selected in one of the open text's values, ready to comment on. */
interface Selected {
  variantId: string | null;
  range: CommentRange;
}

/** The stored plain text of the base (null) or a variant's value. */
const plainOf = (text: Text, variantId: string | null) =>
  variantId === null ? text.base.text : (text.variants.get(variantId)?.text ?? '');

/**
 * Follows the page's selection: a passage selected in the display text of one of the open
 * text's values (editable or not) becomes a range in that value's stored text.
 */
function useTextSelection(text: Text): [Selected | null, () => void] {
  const [selected, setSelected] = useState<Selected | null>(null);
  useEffect(() => {
    const onChange = () => {
      const selection = document.getSelection();
      if (!selection || selection.rangeCount === 0) return;
      const range = selection.getRangeAt(0);
      const start = range.startContainer instanceof Element ? range.startContainer : range.startContainer.parentElement;
      const form = start?.closest<HTMLElement>('[data-comment-on]');
      const rich = form?.querySelector<HTMLElement>('.rich');
      if (!form || !rich?.contains(range.startContainer) || !rich.contains(range.endContainer)) return;
      // A click in the text again (a collapsed selection there) lets go of the passage.
      if (selection.isCollapsed) return setSelected(null);
      const before = document.createRange();
      before.selectNodeContents(rich);
      before.setEnd(range.startContainer, range.startOffset);
      const target = form.dataset.commentOn ?? 'base';
      const variantId = target === 'base' ? null : target;
      const anchored = anchorRange(plainOf(text, variantId), before.toString().length, range.toString());
      if (anchored) setSelected({ variantId, range: anchored });
    };
    document.addEventListener('selectionchange', onChange);
    return () => document.removeEventListener('selectionchange', onChange);
  }, [text]);
  const clear = useCallback(() => setSelected(null), []);
  return [selected, clear];
}

/**
 * The comment threads of the open text: those on its base text and on the variants shown beside
 * it. Anyone who may comment starts a thread (on the whole text or a selected passage), replies,
 * resolves and reopens; people edit and delete their own comments, admins anyone's.
 */
export function CommentsPanel({
  text,
  data,
  session,
  variants,
  focusThread,
  onChanged,
  onMarks,
}: {
  text: Text;
  data: WorkspaceData;
  session: Session;
  /** The variants shown beside the base text: their threads are listed too. */
  variants: string[];
  /** A thread to bring into view and focus (from a thread's link). */
  focusThread: string | null;
  /** After a write: the list's counts follow. */
  onChanged: () => void;
  /** The passages of open threads, per value, for the editor to mark. */
  onMarks?: (marks: Record<string, PassageMark[]>) => void;
}) {
  const [comments, setComments] = useState<Comment[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [showResolved, setShowResolved] = useState(false);
  const mayComment = can(session.role, 'comment');
  const scope = `${text.kind === 'component' ? 'componentId' : 'textItemId'}=${encodeURIComponent(text.developerId)}`;
  const url = `comments?${scope}&limit=1000`;

  // The list answers per caller, so the server sends it whole each time (no ETag to revalidate):
  // an unchanged answer is compared as text and not rendered again.
  const last = useRef<string | null>(null);
  const load = useCallback(async () => {
    try {
      const read = await api.get<{ comments: Comment[] }>(url);
      const seen = JSON.stringify(read.comments);
      if (seen !== last.current) setComments(read.comments);
      last.current = seen;
      setLoaded(true);
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, [url]);
  // A new text's thread list starts from nothing known; then another person's comment arrives
  // through the live stream (polled only while the stream is down).
  const loadFresh = useCallback(() => {
    last.current = null;
    void load();
  }, [load]);
  useLiveRead(loadFresh, { kinds: ['comment'], pollMs: POLL_MS });

  const changed = async () => {
    await load();
    onChanged();
  };

  const threads = useMemo(
    () => groupThreads(comments).filter((t) => t.variantId === null || variants.includes(t.variantId)),
    [comments, variants],
  );
  const marks = useMemo(() => passageMarks(groupThreads(comments)), [comments]);
  const marksKey = JSON.stringify(marks);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the passages is news.
  useEffect(() => onMarks?.(marks), [marksKey, onMarks]);
  const open = threads.filter((t) => !t.resolved);
  const resolved = threads.filter((t) => t.resolved);
  const focused = focusThread ? threads.find((t) => t.id === focusThread) : undefined;
  // A linked resolved thread is shown even while resolved threads are folded away.
  const listed = showResolved || focused?.resolved ? threads : open;

  const [selected, clearSelected] = useTextSelection(text);
  const valueName = (variantId: string | null) =>
    variantId === null ? 'Base text' : (data.variants.find((v) => v.id === variantId)?.name ?? variantId);

  return (
    <section className="comments" aria-labelledby="comments-title">
      <h3 id="comments-title" tabIndex={-1}>
        Comments{' '}
        <span className="muted">
          ({open.length} open{resolved.length ? `, ${resolved.length} resolved` : ''})
        </span>
      </h3>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {mayComment && (
        <NewThread
          text={text}
          users={data.users}
          me={session.email}
          selected={selected}
          valueName={valueName}
          onClearSelected={clearSelected}
          onCreated={changed}
        />
      )}
      {!loaded && !error && <p className="muted">Loading comments…</p>}
      {loaded && threads.length === 0 && <p className="muted">No comments on this text yet.</p>}
      {resolved.length > 0 && (
        <label className="check show-resolved">
          <input type="checkbox" checked={showResolved} onChange={(e) => setShowResolved(e.target.checked)} /> Show
          resolved threads ({resolved.length})
        </label>
      )}
      <ol className="threads" aria-label="Comment threads">
        {listed.map((thread) => (
          <ThreadView
            key={thread.id}
            thread={thread}
            plain={plainOf(text, thread.variantId)}
            valueName={valueName(thread.variantId)}
            session={session}
            users={data.users}
            focused={thread.id === focusThread}
            onChanged={changed}
          />
        ))}
      </ol>
    </section>
  );
}

function NewThread({
  text,
  users,
  me,
  selected,
  valueName,
  onClearSelected,
  onCreated,
}: {
  text: Text;
  users: Person[];
  me: string;
  selected: Selected | null;
  valueName: (variantId: string | null) => string;
  onClearSelected: () => void;
  onCreated: () => Promise<void>;
}) {
  const [body, setBody] = useState('');
  const [on, setOn] = useState<Selected | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const target = text.kind === 'component' ? { componentId: text.developerId } : { textItemId: text.developerId };
      await api.post('comments', {
        comments: [
          {
            ...target,
            ...(on?.variantId ? { variantId: on.variantId } : {}),
            ...(on ? { range: on.range } : {}),
            body: body.trim(),
          },
        ],
      });
      setBody('');
      setOn(null);
      setError(null);
      await onCreated();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="new-thread" aria-label="New comment" onSubmit={submit}>
      {selected && selected !== on && (
        <button
          type="button"
          className="comment-on-selection"
          // Keep the page's selection while the button is pressed.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            setOn(selected);
            onClearSelected();
            box.current?.focus();
          }}
        >
          Comment on “{selected.range.quote}”
        </button>
      )}
      {on && (
        <p className="on-passage">
          On <q>{on.range.quote}</q> in {valueName(on.variantId)}{' '}
          <button type="button" onClick={() => setOn(null)}>
            Comment on the whole text instead
          </button>
        </p>
      )}
      <MentionBox
        label={on ? `Comment on “${on.range.quote}”` : 'Comment on this text'}
        value={body}
        onChange={setBody}
        users={users}
        me={me}
        boxRef={box}
      />
      <button type="submit" disabled={busy || !body.trim()}>
        Comment
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}

function ThreadView({
  thread,
  plain,
  valueName,
  session,
  users,
  focused,
  onChanged,
}: {
  thread: Thread;
  plain: string;
  valueName: string;
  session: Session;
  users: Person[];
  focused: boolean;
  onChanged: () => Promise<void>;
}) {
  const [error, setError] = useState<string | null>(null);
  const [reply, setReply] = useState('');
  const ref = useRef<HTMLLIElement>(null);
  const mayComment = can(session.role, 'comment');
  const range = thread.first.range;
  const detached = isDetached(plain, range);
  const closed = thread.first.recordDeleted;

  useEffect(() => {
    if (!focused || !ref.current) return;
    ref.current.scrollIntoView({ block: 'center' });
    ref.current.focus({ preventScroll: true });
  }, [focused]);

  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
      setError(null);
      await onChanged();
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    }
  };
  const toggleResolved = () =>
    run(() => api.post(`comments/${thread.resolved ? 'reopen' : 'resolve'}`, { threadIds: [thread.id] }));
  const sendReply = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => api.post('comments', { comments: [{ threadId: thread.id, body: reply.trim() }] })))
      setReply('');
  };

  return (
    <li
      ref={ref}
      id={`thread-${thread.id}`}
      tabIndex={-1}
      className={`thread${thread.resolved ? ' resolved' : ''}${focused ? ' focused' : ''}`}
      aria-label={`Thread by ${thread.first.author}${thread.resolved ? ', resolved' : ''}`}
    >
      <p className="thread-head">
        <span className="muted">{valueName}</span>
        {range && (
          <>
            {' · '}
            <q className={detached ? 'quote detached' : 'quote'}>{range.quote}</q>
            {detached && <span className="tag-detached"> detached: the text no longer reads so here</span>}
          </>
        )}
        {thread.resolved && (
          <span className="tag-resolved">
            {' '}
            Resolved{thread.first.resolvedBy ? ` by ${nameOf(users, thread.first.resolvedBy)}` : ''}
          </span>
        )}
      </p>
      <ol className="thread-comments">
        {[thread.first, ...thread.replies].map((c) => (
          <CommentView key={c.id} comment={c} session={session} users={users} run={run} />
        ))}
      </ol>
      {mayComment && (
        <div className="thread-actions">
          {!closed && (
            <form className="reply" aria-label={`Reply to ${thread.first.author}`} onSubmit={sendReply}>
              <MentionBox label="Reply" value={reply} onChange={setReply} users={users} me={session.email} rows={2} />
              <button type="submit" disabled={!reply.trim()}>
                Reply
              </button>
            </form>
          )}
          <button type="button" onClick={() => void toggleResolved()}>
            {thread.resolved ? 'Reopen' : 'Resolve'}
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </li>
  );
}

function CommentView({
  comment,
  session,
  users,
  run,
}: {
  comment: Comment;
  session: Session;
  users: Person[];
  run: (action: () => Promise<unknown>) => Promise<boolean>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const mine = mayChange(comment, session);
  const isFirst = comment.id === comment.threadId;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => api.patch('comments', { updates: [{ id: comment.id, body: editing?.trim() }] })))
      setEditing(null);
  };
  return (
    <li className="comment">
      <p className="comment-meta">
        <strong>{nameOf(users, comment.author)}</strong>{' '}
        <time dateTime={comment.createdAt} className="muted">
          {when(comment.createdAt)}
        </time>
        {comment.editedAt && (
          <span className="muted" title={`Edited ${when(comment.editedAt)}`}>
            {' '}
            (edited)
          </span>
        )}
      </p>
      {editing === null ? (
        <p className="comment-body">{withMentions(comment.body, comment.mentions)}</p>
      ) : (
        <form className="edit-comment" aria-label="Edit comment" onSubmit={save}>
          <MentionBox
            label="Edit comment"
            value={editing}
            onChange={setEditing}
            users={users}
            me={session.email}
            rows={2}
            unsaved={editing !== comment.body}
          />
          <button type="submit" disabled={!editing.trim()}>
            Save comment
          </button>
          <button type="button" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
      {mine && editing === null && (
        <p className="comment-tools">
          <button type="button" onClick={() => setEditing(comment.body)}>
            Edit
          </button>
          {asking ? (
            <>
              <button
                type="button"
                onClick={() => void run(() => api.delete('comments', { ids: [comment.id] }))}
                className="danger"
              >
                Yes, delete {isFirst ? 'the thread' : 'the comment'}
              </button>
              <button type="button" onClick={() => setAsking(false)}>
                Cancel
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setAsking(true)}>
              Delete
            </button>
          )}
        </p>
      )}
    </li>
  );
}

/** A body with its mentions marked. */
function withMentions(body: string, mentions: string[]): ReactNode {
  if (mentions.length === 0) return body;
  const escaped = mentions.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = body.split(new RegExp(`(@(?:${escaped.join('|')}))`, 'i'));
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one body never move.
      <span key={i} className="mention">
        {part}
      </span>
    ) : (
      part
    ),
  );
}

/**
 * A textarea that offers the workspace's people after `@`: type to narrow by email or name,
 * Arrow keys and Enter (or a click) insert `@email`; Esc closes the list.
 */
function MentionBox({
  label,
  value,
  onChange,
  users,
  me,
  rows = 3,
  boxRef,
  unsaved = value.trim() !== '',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  users: Person[];
  /** The writer's email: left out of the people offered. */
  me: string;
  rows?: number;
  boxRef?: RefObject<HTMLTextAreaElement | null>;
  /** Whether leaving would lose what was typed (by default: the box is not empty). */
  unsaved?: boolean;
}) {
  const id = useId();
  // A comment being written counts as an unsaved edit: leaving the text asks first.
  useEffect(() => {
    setUnsaved(`comment${id}`, unsaved);
    return () => setUnsaved(`comment${id}`, false);
  }, [id, unsaved]);
  const own = useRef<HTMLTextAreaElement>(null);
  const box = boxRef ?? own;
  const [caret, setCaret] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const typing = mentionAt(value, caret);
  const people = typing && dismissed !== typing.start ? suggestPeople(users, typing.query, { me }) : [];
  const expanded = people.length > 0;
  const current = people[Math.min(active, people.length - 1)];

  const pick = (person: Person) => {
    if (!typing) return;
    const next = insertMention(value, typing.start, caret, person.email);
    onChange(next.value);
    setCaret(next.caret);
    setActive(0);
    window.setTimeout(() => {
      box.current?.focus();
      box.current?.setSelectionRange(next.caret, next.caret);
    }, 0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Esc in a comment being written does not close the text (and lose the comment).
    if (!expanded && event.key === 'Escape' && value.trim()) event.stopPropagation();
    if (!expanded) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + people.length) % people.length);
    } else if ((event.key === 'Enter' || event.key === 'Tab') && current) {
      event.preventDefault();
      pick(current);
    } else if (event.key === 'Escape') {
      // Closes the list, not the open text.
      event.preventDefault();
      event.stopPropagation();
      setDismissed(typing?.start ?? null);
    }
  };

  return (
    <div className="mention-box">
      <label htmlFor={`${id}-box`}>{label}</label>
      <textarea
        id={`${id}-box`}
        ref={box}
        rows={rows}
        value={value}
        aria-autocomplete="list"
        aria-controls={expanded ? `${id}-people` : undefined}
        aria-activedescendant={expanded && current ? `${id}-p-${people.indexOf(current)}` : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          onChange(e.target.value);
          setCaret(e.target.selectionStart);
          setDismissed(null);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
      />
      <span id={`${id}-hint`} className="visually-hidden">
        Type @ to mention someone.
      </span>
      {expanded && (
        <div id={`${id}-people`} role="listbox" aria-label="People to mention" className="mention-list">
          {people.map((p, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the textarea handles the keys (Arrow keys, Enter).
            <div
              key={p.email}
              id={`${id}-p-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={p === current}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(p)}
            >
              {p.name && p.name !== p.email ? `${p.name} ` : ''}
              <span className="muted">{p.email}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * Comments that mention the signed-in person, newest first, each a link to its text with the
 * thread open; `open` keeps only unresolved threads.
 */
export function MentionsPage({
  onlyOpen,
  go,
  setOnlyOpen,
  users,
}: {
  onlyOpen: boolean;
  users: Person[];
  go: (to: string) => void;
  setOnlyOpen: (on: boolean) => void;
}) {
  const [comments, setComments] = useState<Comment[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setComments(null);
    api
      .get<{ comments: Comment[] }>(`comments?mentions=me&limit=1000${onlyOpen ? '&open=true' : ''}`)
      .then((r) => live && setComments([...r.comments].reverse()))
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [onlyOpen]);
  return (
    <main className="page mentions">
      <h1>Mentions of me</h1>
      <label className="check">
        <input type="checkbox" checked={onlyOpen} onChange={(e) => setOnlyOpen(e.target.checked)} /> Only open threads
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {comments === null && !error && <p aria-busy="true">Loading…</p>}
      {comments?.length === 0 && (
        <p className="muted">Nobody has mentioned you{onlyOpen ? ' in an open thread' : ''}.</p>
      )}
      {comments && comments.length > 0 && (
        <ol className="mention-results">
          {comments.map((c) => (
            <li key={c.id} className={c.resolved ? 'resolved' : undefined}>
              <p className="comment-meta">
                <strong>{nameOf(users, c.author)}</strong>{' '}
                <time dateTime={c.createdAt} className="muted">
                  {when(c.createdAt)}
                </time>
                {c.resolved && <span className="tag-resolved"> Resolved</span>}
              </p>
              {c.range && (
                <p className="muted">
                  On <q className="quote">{c.range.quote}</q>
                </p>
              )}
              <p className="comment-body">{withMentions(c.body, c.mentions)}</p>
              {c.recordDeleted ? (
                // Its text is gone, so a link would open "No text here": the thread shows here instead.
                <>
                  <p>
                    {recordName(c)} <span className="muted">(deleted since)</span>
                  </p>
                  <DeletedThread threadId={c.threadId} users={users} />
                </>
              ) : (
                <p>
                  <AppLink to={threadUrl(c)} go={go}>
                    {recordName(c)}
                  </AppLink>
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}

const recordName = (c: Comment) =>
  `${c.componentId ? `Component ${c.componentId}` : `${c.projectId} / ${c.textItemId}`}${c.variantId ? ` (${c.variantId})` : ''}`;

/**
 * The thread of a text deleted since, shown in place (there is no text to open it in): a button
 * expands it with all its comments, read-only, as `GET /v2/comments?threadId=` answers them.
 * Such a thread takes no more replies ([comments.md](../../docs/comments.md)).
 */
export function DeletedThread({
  threadId,
  users,
  onOpen,
}: {
  threadId: string;
  users: Person[];
  /** Called when the thread is first shown (the inbox marks its notification read). */
  onOpen?: () => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [thread, setThread] = useState<Thread | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open || thread) return;
    let live = true;
    api
      .get<{ comments: Comment[] }>(`comments?threadId=${encodeURIComponent(threadId)}&limit=1000`)
      .then((r) => {
        if (!live) return;
        const [found] = groupThreads(r.comments);
        if (found) setThread(found);
        else setError('This thread has been deleted.');
      })
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [open, thread, threadId]);
  const name = (email: string) => nameOf(users, email);
  return (
    <div className="deleted-thread">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-thread`}
        onClick={() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
      >
        {open ? 'Hide the thread' : 'Show the thread'}
      </button>
      {open && (
        <section id={`${id}-thread`} aria-label="Thread of a deleted text" className="thread">
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          {!thread && !error && <p aria-busy="true">Loading…</p>}
          {thread && (
            <>
              <p className="muted">
                Its text was deleted: the thread can be read but takes no more replies
                {thread.resolved
                  ? `. Resolved${thread.first.resolvedBy ? ` by ${name(thread.first.resolvedBy)}` : ''}.`
                  : '.'}
              </p>
              <ol className="thread-comments">
                {[thread.first, ...thread.replies].map((c) => (
                  <li key={c.id} className="comment">
                    <p className="comment-meta">
                      <strong>{name(c.author)}</strong>{' '}
                      <time dateTime={c.createdAt} className="muted">
                        {when(c.createdAt)}
                      </time>
                    </p>
                    <p className="comment-body">{withMentions(c.body, c.mentions)}</p>
                  </li>
                ))}
              </ol>
            </>
          )}
        </section>
      )}
    </div>
  );
}
