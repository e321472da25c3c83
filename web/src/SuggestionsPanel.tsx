import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { AppLink } from './AppLink';
import { ApiError, api, messageOf, type Session } from './api';
import { useLiveRead } from './events';
import type { Text } from './model';
import { RichEditor } from './RichEditor';
import { can, mayWithdraw } from './roles';
import {
  changes,
  type Diffs,
  diffSummary,
  hasFormatting,
  htmlOf,
  type Suggestion,
  type SuggestionDetail,
  suggestionUrl,
  type WordDiff,
} from './suggestions';
import type { WorkspaceData } from './useWorkspaceData';
import './suggestions.css';

/** How often the open text's suggestions are read again. */
const POLL_MS = 3000;

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) || iso;
const noChange = () => undefined;

/**
 * The open text's pending suggestions (open or stale), beside its comments: each with its
 * author, time, note and word diff; accept and reject for editors, withdraw for the author,
 * "Apply anyway" for a stale one. Every suggestion of the text is listed, whichever value it
 * is for (a suggestion for a variant not shown beside the base text still waits for a decision).
 */
export function SuggestionsPanel({
  text,
  data,
  session,
  focusSuggestion,
  round,
  onChanged,
  onApplied,
}: {
  text: Text;
  data: WorkspaceData;
  session: Session;
  /** A suggestion to bring into view and focus (the URL's `suggestion`). */
  focusSuggestion: string | null;
  /** Changes when a pane sent a suggestion: read again at once. */
  round: number;
  /** After a decision: the list's counts follow. */
  onChanged: () => void;
  /** After an accept: the text changed, the list reads it again. */
  onApplied: () => Promise<void>;
}) {
  const [pending, setPending] = useState<SuggestionDetail[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const scope = `${text.kind === 'component' ? 'componentId' : 'textItemId'}=${encodeURIComponent(text.developerId)}`;
  // A suggestion's detail depends on the text now (its current diff): read again when either changes.
  const details = useRef(new Map<string, SuggestionDetail>());
  const etag = text.etag;

  const load = useCallback(async () => {
    try {
      const lists = await Promise.all(
        (['open', 'stale'] as const).map((status) =>
          api.get<{ suggestions: Suggestion[] }>(`suggestions?${scope}&status=${status}&limit=1000`),
        ),
      );
      const listed = lists.flatMap((l) => l.suggestions).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      const read = await Promise.all(
        listed.map(async (s) => {
          const key = `${s.id}:${s.status}:${etag}`;
          const known = details.current.get(key);
          if (known) return known;
          const detail = await api.get<SuggestionDetail>(`suggestions/${encodeURIComponent(s.id)}`);
          details.current.set(key, detail);
          return detail;
        }),
      );
      setPending((before) => (JSON.stringify(before) === JSON.stringify(read) ? before : read));
      setLoaded(true);
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, [scope, etag]);
  // Suggestions arrive through the live stream, and an edit of the text may make one stale
  // (polled only while the stream is down).
  const loadRound = useCallback(() => {
    void round;
    void load();
  }, [load, round]);
  useLiveRead(loadRound, { kinds: ['suggestion', 'textItem', 'component'], pollMs: POLL_MS });

  const valueName = (variantId: string | null) =>
    variantId === null ? 'Base text' : (data.variants.find((v) => v.id === variantId)?.name ?? variantId);

  const decided = async (applied: boolean) => {
    details.current.clear();
    await load();
    onChanged();
    if (applied) await onApplied();
  };

  return (
    <section className="suggestions" aria-labelledby="suggestions-title">
      <h3 id="suggestions-title" tabIndex={-1}>
        Suggestions <span className="muted">({pending.length} open)</span>
      </h3>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!loaded && !error && <p className="muted">Loading suggestions…</p>}
      {loaded && pending.length === 0 && <p className="muted">No open suggestions on this text.</p>}
      <ol className="suggestion-list" aria-label="Open suggestions">
        {pending.map((s) => (
          <SuggestionView
            key={s.id}
            s={s}
            session={session}
            valueName={valueName(s.variantId)}
            focused={s.id === focusSuggestion}
            onDecided={decided}
          />
        ))}
      </ol>
    </section>
  );
}

/** A word diff: removed words struck through, added ones underlined, each named for screen readers. */
export function DiffView({ diff, label }: { diff: WordDiff; label: string }) {
  return (
    <p className="diff">
      <span className="visually-hidden">{label}: </span>
      {diff.parts.map((part, i) => {
        const key = `${i}:${part.type}`;
        if (part.type === 'added')
          return (
            <ins key={key}>
              <span className="visually-hidden">[added: </span>
              {part.text}
              <span className="visually-hidden">]</span>
            </ins>
          );
        if (part.type === 'removed')
          return (
            <del key={key}>
              <span className="visually-hidden">[removed: </span>
              {part.text}
              <span className="visually-hidden">]</span>
            </del>
          );
        return <span key={key}>{part.text}</span>;
      })}
      {diff.parts.length === 0 && <span className="muted">(empty)</span>}
    </p>
  );
}

/** The text's diff and the changed plural forms' diffs. */
function DiffsView({ diffs, label }: { diffs: Diffs; label: string }) {
  const plurals = diffs.plurals.filter(changes);
  return (
    <>
      {(changes(diffs.text) || plurals.length === 0) && (
        <>
          <DiffView diff={diffs.text} label={label} />
          <p className="muted diff-count">{diffSummary(diffs.text)}</p>
        </>
      )}
      {plurals.map((p) => (
        <div key={p.form}>
          <p className="form-label">Plural form “{p.form}”</p>
          <DiffView diff={p} label={`${label}, plural form ${p.form}`} />
        </div>
      ))}
    </>
  );
}

function SuggestionView({
  s,
  session,
  valueName,
  focused,
  onDecided,
}: {
  s: SuggestionDetail;
  session: Session;
  valueName: string;
  focused: boolean;
  onDecided: (applied: boolean) => Promise<void>;
}) {
  const review = can(session.role, 'review');
  const withdraw = mayWithdraw(s, session);
  const stale = s.status === 'stale' || s.baseChanged;
  const [rejecting, setRejecting] = useState(false);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const item = useRef<HTMLLIElement>(null);
  const [, navigate] = useLocation();
  useEffect(() => {
    if (!focused) return;
    item.current?.scrollIntoView({ block: 'center' });
    item.current?.focus();
  }, [focused]);

  const act = async (path: string, body: Record<string, unknown>, applied = false) => {
    setBusy(true);
    setMessage(null);
    try {
      await api.post(`suggestions/${path}`, { ids: [s.id], ...body });
      await onDecided(applied);
    } catch (e) {
      // A 409 on accept: the text changed meanwhile and the suggestion is now stale; show both diffs.
      setMessage(
        e instanceof ApiError && e.status === 409
          ? 'The text changed since this was suggested: read both changes below, then decide.'
          : messageOf(e),
      );
      if (e instanceof ApiError && e.status === 409) await onDecided(false);
    } finally {
      setBusy(false);
    }
  };

  const reject = (event: FormEvent) => {
    event.preventDefault();
    void act('reject', note.trim() ? { note: note.trim() } : {});
  };

  const formatted = hasFormatting(s.proposed.richText) || hasFormatting(s.base.richText);
  return (
    <li
      ref={item}
      tabIndex={-1}
      className={`suggestion${stale ? ' stale' : ''}${focused ? ' focused' : ''}`}
      aria-label={`Suggestion by ${s.author} for ${valueName}${stale ? ', stale' : ''}`}
    >
      <p className="thread-head">
        <strong>{s.author}</strong> <span className="muted">{when(s.createdAt)}</span>
        {' · '}
        {valueName}
        {stale && <span className="stale-mark"> stale</span>}{' '}
        <AppLink to={suggestionUrl(s)} go={(to) => navigate(to, { replace: true })} className="muted">
          Link<span className="visually-hidden"> to this suggestion</span>
        </AppLink>
      </p>
      {s.note && <p className="suggestion-note">“{s.note}”</p>}
      {!s.base.exists && <p className="muted">A new {valueName} value: the text has none yet.</p>}
      {stale && <p className="form-label">Suggested, against the text as it was then:</p>}
      <DiffsView
        diffs={s.diff}
        label={stale ? 'The suggested change, against the text it was made on' : 'Suggested change'}
      />
      {formatted && (
        <div className="formatted">
          <div>
            <p className="form-label" aria-hidden="true">
              Before
            </p>
            <RichEditor label="Before, formatted" html={htmlOf(s.base)} editable={false} onChange={noChange} />
          </div>
          <div>
            <p className="form-label" aria-hidden="true">
              Suggested
            </p>
            <RichEditor
              label="Suggested, formatted"
              html={s.proposed.text || s.proposed.richText ? htmlOf(s.proposed) : htmlOf(s.base)}
              editable={false}
              onChange={noChange}
            />
          </div>
        </div>
      )}
      {stale && (
        <div className="stale-explain">
          <p>
            <strong>The text changed since this was suggested.</strong> Accepting it would undo or miss that change, so
            it is not applied as it is. What changed in the text meanwhile:
          </p>
          {s.currentDiff && <DiffsView diffs={s.currentDiff} label="Changed in the text since" />}
          {review && (
            <p className="muted">“Apply anyway” replaces the text's current wording with the suggested one.</p>
          )}
        </div>
      )}
      {message && (
        <p role="alert" className="error">
          {message}
        </p>
      )}
      <div className="thread-actions">
        {review && !stale && (
          <button type="button" disabled={busy} onClick={() => void act('accept', {}, true)}>
            Accept
          </button>
        )}
        {review && stale && (
          <button type="button" disabled={busy} onClick={() => void act('accept', { force: true }, true)}>
            Apply anyway
          </button>
        )}
        {review && !rejecting && (
          <button type="button" disabled={busy} onClick={() => setRejecting(true)}>
            Reject…
          </button>
        )}
        {withdraw && (
          <button type="button" disabled={busy} onClick={() => void act('withdraw', {})}>
            Withdraw
          </button>
        )}
      </div>
      {rejecting && (
        <form className="reject" aria-label={`Reject the suggestion by ${s.author}`} onSubmit={reject}>
          <label>
            Why (optional, shown to {s.author})
            <textarea value={note} rows={2} onChange={(e) => setNote(e.target.value)} />
          </label>
          <div className="thread-actions">
            <button type="submit" disabled={busy}>
              Reject suggestion
            </button>
            <button type="button" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
