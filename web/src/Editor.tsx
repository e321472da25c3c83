import { useCallback, useEffect, useRef, useState } from 'react';
import type { Session } from './api';
import { CommentsPanel } from './CommentsPanel';
import type { PassageMark } from './comments';
import { initialsOf, useOpenPresence, usePresence } from './events';
import { HistoryList } from './HistoryList';
import { FollowToggle } from './Inbox';
import { LibraryPanel, type OpenTarget } from './Library';
import { type Text, translationState } from './model';
import { type EditorMode, editorModes } from './roles';
import { SuggestionsPanel } from './SuggestionsPanel';
import { PresenceBadges } from './TextList';
import { TranslatePanel } from './TranslatePanel';
import { confirmLeave } from './unsaved';
import type { WorkspaceData } from './useWorkspaceData';
import { ValueForm } from './ValueForm';
import './editor.css';

/** The variants shown beside the base text, remembered from one text to the next. */
const CHOSEN_KEY = 'copydesk.variants';
const MAX_SIDE_BY_SIDE = 3;

function readChosen(): string[] {
  try {
    const stored = JSON.parse(window.localStorage.getItem(CHOSEN_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Editing or suggesting, remembered from one text to the next (for those who may do both). */
const MODE_KEY = 'copydesk.editorMode';

function readMode(modes: readonly EditorMode[]): EditorMode | null {
  const stored = window.localStorage.getItem(MODE_KEY);
  return modes.find((m) => m === stored) ?? modes[0] ?? null;
}

const STATE_WORDS = { missing: 'missing', outdated: 'outdated', upToDate: 'up to date', translated: 'translated' };

/**
 * A text item or component opened beside its list: the base text, up to three variants side by
 * side, history. Ctrl/Cmd+S saves every changed pane, Esc closes (asking first when unsaved).
 */
export function Editor({
  text,
  data,
  canEdit,
  session,
  focusThread = null,
  focusSuggestion = null,
  openThreads = 0,
  openSuggestions = 0,
  onCommented = () => undefined,
  onSuggestionsChanged = () => undefined,
  onSaved,
  onClose,
  onOpen,
}: {
  text: Text;
  data: WorkspaceData;
  canEdit: boolean;
  session: Session;
  /** A comment thread to bring into view (from a thread's link). */
  focusThread?: string | null;
  /** Unresolved comment threads on the text (all its values): a link down to them. */
  openThreads?: number;
  /** A suggestion to bring into view (the URL's `suggestion`). */
  focusSuggestion?: string | null;
  /** Pending suggestions on the text: a link down to them. */
  openSuggestions?: number;
  /** After a suggestion was sent or decided: the list's counts follow. */
  onSuggestionsChanged?: () => void;
  /** After a comment write: the list's counts follow. */
  onCommented?: () => void;
  onSaved: () => Promise<void>;
  onClose: () => void;
  onOpen?: (where: OpenTarget, developerId: string) => void;
}) {
  // This tab has the text open; the others who have it open too are shown under the title.
  useOpenPresence(text.kind, text.developerId);
  const here = usePresence()
    .filter((p) => p.kind === text.kind && p.id === text.developerId)
    .map((p) => {
      const name = data.users.find((u) => u.email === p.email)?.name;
      return { key: p.clientId, initials: initialsOf(name, p.email), name: name || p.email };
    });
  const [chosen, setChosen] = useState<string[]>(readChosen);
  // Ids of variants deleted since are kept until the variants are read, then left out.
  const shown = data.variants.length > 0 ? chosen.filter((id) => data.variants.some((v) => v.id === id)) : [];
  const choose = (id: string, on: boolean) => {
    const next = on ? [...shown.filter((v) => v !== id), id].slice(-MAX_SIDE_BY_SIDE) : shown.filter((v) => v !== id);
    setChosen(next);
    window.localStorage.setItem(CHOSEN_KEY, JSON.stringify(next));
  };

  const modes = editorModes(session.role);
  const [mode, setModeState] = useState<EditorMode | null>(() => readMode(modes));
  const setMode = (next: EditorMode) => {
    setModeState(next);
    window.localStorage.setItem(MODE_KEY, next);
  };
  const [suggestRound, setSuggestRound] = useState(0);
  const suggested = useCallback(() => {
    setSuggestRound((r) => r + 1);
    onSuggestionsChanged();
  }, [onSuggestionsChanged]);

  // The passages of open comment threads, marked in each value's text.
  const [commentMarks, setCommentMarks] = useState<Record<string, PassageMark[]>>({});

  const saves = useRef(new Map<string, () => Promise<boolean>>());
  const register = useCallback((key: string, save: (() => Promise<boolean>) | null) => {
    if (save) saves.current.set(key, save);
    else saves.current.delete(key);
  }, []);
  const saveAll = useCallback(async () => {
    // One after another: each save's ETag check sees the one before it.
    for (const save of [...saves.current.values()]) await save();
  }, []);
  const close = () => {
    if (confirmLeave()) onClose();
  };

  // Ctrl/Cmd+S anywhere while a text is open saves it, never the browser's "Save page".
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveAll();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [saveAll]);

  return (
    <section
      className="editor"
      aria-label={`Editing ${text.developerId}`}
      onKeyDown={(event) => {
        // ProseMirror marks every Escape as handled, so its being prevented says nothing here.
        if (event.key === 'Escape') {
          event.preventDefault();
          close();
        }
      }}
    >
      <div className="editor-head">
        <h2>{text.name ?? text.developerId}</h2>
        <span className="editor-head-tools">
          <FollowToggle key={`${text.kind}:${text.developerId}`} text={text} />
          <button type="button" onClick={close} aria-label="Close editor">
            ×
          </button>
        </span>
      </div>
      <p className="muted">
        Developer ID: <code>{text.developerId}</code>
        {text.blockName && <> · block {text.blockName}</>}
        {text.componentId && <> · instance of {text.componentId}</>}
        {openThreads > 0 && (
          <>
            {' · '}
            <a href="#comments-title">
              {openThreads} open {openThreads === 1 ? 'comment' : 'comments'}
            </a>
          </>
        )}
        {openSuggestions > 0 && (
          <>
            {' · '}
            <a href="#suggestions-title">
              {openSuggestions} open {openSuggestions === 1 ? 'suggestion' : 'suggestions'}
            </a>
          </>
        )}
        {here.length > 0 && (
          <>
            {' · '}
            <PresenceBadges people={here} />
          </>
        )}
      </p>
      {modes.length > 1 && (
        // biome-ignore lint/a11y/useSemanticElements: two toggle buttons, one pressed, as a writing tool's mode switch
        <div className="mode-switch" role="group" aria-label="Mode">
          <button type="button" aria-pressed={mode === 'edit'} onClick={() => setMode('edit')}>
            Editing
          </button>
          <button type="button" aria-pressed={mode === 'suggest'} onClick={() => setMode('suggest')}>
            Suggesting
          </button>
        </div>
      )}
      {data.variants.length > 0 && (
        <fieldset className="variant-choice">
          <legend>Variants beside the base text (up to {MAX_SIDE_BY_SIDE})</legend>
          {data.variants.map((v) => {
            const on = shown.includes(v.id);
            return (
              <label key={v.id}>
                <input
                  type="checkbox"
                  checked={on}
                  disabled={!on && shown.length >= MAX_SIDE_BY_SIDE}
                  onChange={(e) => choose(v.id, e.target.checked)}
                />{' '}
                {v.name} <span className="muted">({STATE_WORDS[translationState(text, v.id)]})</span>
              </label>
            );
          })}
        </fieldset>
      )}
      <div className={`side-by-side panes-${1 + shown.length}`}>
        <ValueForm
          key="base"
          title="Base text"
          text={text}
          variantId={null}
          data={data}
          canEdit={canEdit}
          onSaved={onSaved}
          register={register}
          commentMarks={commentMarks.base}
          mode={mode}
          onSuggested={suggested}
        />
        {shown.map((variantId) => (
          <ValueForm
            key={variantId}
            title={data.variants.find((v) => v.id === variantId)?.name ?? variantId}
            text={text}
            variantId={variantId}
            data={data}
            canEdit={canEdit}
            onSaved={onSaved}
            register={register}
            commentMarks={commentMarks[variantId]}
            mode={mode}
            onSuggested={suggested}
          />
        ))}
      </div>
      <TranslatePanel
        text={text}
        data={data}
        variants={shown}
        canEdit={canEdit}
        onSaved={onSaved}
        onSuggested={suggested}
      />
      <SuggestionsPanel
        text={text}
        data={data}
        session={session}
        focusSuggestion={focusSuggestion}
        round={suggestRound}
        onChanged={onSuggestionsChanged}
        onApplied={async () => onSuggestionsChanged()}
      />
      <CommentsPanel
        text={text}
        data={data}
        session={session}
        variants={shown}
        focusThread={focusThread}
        onChanged={onCommented}
        onMarks={setCommentMarks}
      />
      <LibraryPanel text={text} data={data} canEdit={canEdit} onChanged={onSaved} onOpen={onOpen} />
      <HistoryList kind={text.kind} developerId={text.developerId} canEdit={canEdit} />
    </section>
  );
}
