import { useCallback, useEffect, useRef, useState } from 'react';
import { HistoryList } from './HistoryList';
import { LibraryPanel, type OpenTarget } from './Library';
import { type Text, translationState } from './model';
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

const STATE_WORDS = { missing: 'missing', outdated: 'outdated', upToDate: 'up to date', translated: 'translated' };

/**
 * A text item or component opened beside its list: the base text, up to three variants side by
 * side, history. Ctrl/Cmd+S saves every changed pane, Esc closes (asking first when unsaved).
 */
export function Editor({
  text,
  data,
  canEdit,
  onSaved,
  onClose,
  onOpen,
}: {
  text: Text;
  data: WorkspaceData;
  canEdit: boolean;
  onSaved: () => Promise<void>;
  onClose: () => void;
  onOpen?: (where: OpenTarget, developerId: string) => void;
}) {
  const [chosen, setChosen] = useState<string[]>(readChosen);
  // Ids of variants deleted since are kept until the variants are read, then left out.
  const shown = data.variants.length > 0 ? chosen.filter((id) => data.variants.some((v) => v.id === id)) : [];
  const choose = (id: string, on: boolean) => {
    const next = on ? [...shown.filter((v) => v !== id), id].slice(-MAX_SIDE_BY_SIDE) : shown.filter((v) => v !== id);
    setChosen(next);
    window.localStorage.setItem(CHOSEN_KEY, JSON.stringify(next));
  };

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
        <button type="button" onClick={close} aria-label="Close editor">
          ×
        </button>
      </div>
      <p className="muted">
        Developer ID: <code>{text.developerId}</code>
        {text.blockName && <> · block {text.blockName}</>}
        {text.componentId && <> · instance of {text.componentId}</>}
      </p>
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
          />
        ))}
      </div>
      <LibraryPanel text={text} data={data} canEdit={canEdit} onChanged={onSaved} onOpen={onOpen} />
      <h3>History</h3>
      <HistoryList kind={text.kind} developerId={text.developerId} />
    </section>
  );
}
