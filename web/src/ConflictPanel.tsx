import { useState } from 'react';
import type { Choice, FieldMerge, FieldValue } from './merge';
import { mergeText } from './merge';
import { markupText } from './model';
import { RichEditor } from './RichEditor';

/**
 * What the 412 of a save shows: per field, what the other person changed and what the save will
 * keep; for each field both changed, the writer's choice (keep mine, take theirs, or for a text
 * edit the merged text). Rules in docs/editor.md.
 */
export function ConflictPanel({
  idPrefix,
  merges,
  describe,
  variables,
  onSave,
  onDiscard,
}: {
  idPrefix: string;
  merges: readonly FieldMerge[];
  /** A field's name and a value as a reader sees it (status names, not ids). */
  describe: (field: string, value: FieldValue) => { label: string; shown: string };
  variables: readonly string[];
  onSave: (choices: Record<string, Choice>) => void;
  onDiscard: () => void;
}) {
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const shown = merges.filter((m) => m.outcome !== 'unchanged');
  const open = merges.filter((m) => m.outcome === 'conflict' && !choices[m.field]);
  const value = (m: FieldMerge, v: FieldValue) => describe(m.field, v).shown;
  const isText = (field: string) => field === 'text' || field.startsWith('plural:');
  return (
    <div role="alert" className="conflict">
      <p>
        <strong>Someone else changed this text while you were editing.</strong> Fields only one of you changed keep that
        change; choose for the fields you both changed, then save.
      </p>
      <ul className="merge-fields">
        {shown.map((m) => {
          const { label } = describe(m.field, m.value);
          if (m.outcome === 'conflict') return null;
          return (
            <li key={m.field}>
              <strong>{label}</strong>:{' '}
              {m.outcome === 'theirs' && (
                <>
                  they changed it from “{value(m, m.base)}” to “{value(m, m.theirs)}” (theirs kept)
                </>
              )}
              {m.outcome === 'mine' && <>you changed it to “{value(m, m.mine)}” (yours kept)</>}
              {m.outcome === 'same' && <>you both changed it to “{value(m, m.mine)}”</>}
              {m.outcome === 'combined' && (
                <>
                  they changed it to “{value(m, m.theirs)}”, you to “{value(m, m.mine)}”: combined as “
                  {value(m, m.value)}”
                </>
              )}
            </li>
          );
        })}
      </ul>
      {merges
        .filter((m) => m.outcome === 'conflict')
        .map((m) => {
          const { label } = describe(m.field, m.value);
          const name = `${idPrefix}-choice-${m.field}`;
          const choice = choices[m.field];
          const set = (c: Choice) => setChoices((all) => ({ ...all, [m.field]: c }));
          const merged =
            typeof m.base === 'string' && typeof m.mine === 'string' && typeof m.theirs === 'string'
              ? (mergeText(m.base, m.mine, m.theirs) ?? m.mine)
              : '';
          return (
            <fieldset key={m.field} className="merge-choice">
              <legend>{label}: you both changed it</legend>
              <p>
                Yours: “{value(m, m.mine)}” · Theirs: “{value(m, m.theirs)}”
              </p>
              <label>
                <input
                  type="radio"
                  name={name}
                  checked={choice?.take === 'mine'}
                  onChange={() => set({ take: 'mine' })}
                />{' '}
                Keep mine
              </label>
              <label>
                <input
                  type="radio"
                  name={name}
                  checked={choice?.take === 'theirs'}
                  onChange={() => set({ take: 'theirs' })}
                />{' '}
                Take theirs
              </label>
              {isText(m.field) && (
                <label>
                  <input
                    type="radio"
                    name={name}
                    checked={choice?.take === 'edited'}
                    onChange={() => set({ take: 'edited', value: merged })}
                  />{' '}
                  Edit the merged text
                </label>
              )}
              {choice?.take === 'edited' && (
                <RichEditor
                  label={`Merged ${label.toLowerCase()}`}
                  html={merged}
                  editable
                  variables={variables}
                  onChange={(html) => set({ take: 'edited', value: html })}
                />
              )}
            </fieldset>
          );
        })}
      <div className="actions">
        <button type="button" disabled={open.length > 0} onClick={() => onSave(choices)}>
          Save merged version
        </button>
        <button type="button" onClick={onDiscard}>
          Discard my changes
        </button>
      </div>
      {open.length > 0 && (
        <p className="muted">Choose for: {open.map((m) => describe(m.field, null).label).join(', ')}</p>
      )}
    </div>
  );
}

/** A text field's value as a reader sees it: no markup. */
export const shownText = (value: FieldValue) => (typeof value === 'string' ? markupText(value) : '');
