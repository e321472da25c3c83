import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';

/** The message to show for a failed request: the API's 400 `message`, or what went wrong. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One form's request: `run` sends it and keeps the API's error message (as `describe` words it)
 * for the form to show beside itself; it answers whether the request succeeded.
 */
export function useAction(describe: (error: unknown) => string = messageOf) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    try {
      await action();
      setError(null);
      return true;
    } catch (e) {
      setError(describe(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, clear: () => setError(null) };
}

/**
 * A list the page reads when it opens and again on `load()`: `key` of the answer of GET `path`,
 * and why the last read failed (null once one succeeds).
 */
export function useListOf<T>(path: string, key: string) {
  const [items, setItems] = useState<T[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setItems((await api.get<Record<string, T[]>>(path))[key] ?? []);
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, [path, key]);
  useEffect(() => {
    void load();
  }, [load]);
  return { items, error, load };
}

export function ErrorText({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {error}
    </p>
  );
}

/**
 * A delete that asks first: the button turns into a question with the real delete and a cancel
 * (focus moves to the cancel, so Enter twice never deletes by accident). `extra` may hold a
 * choice the delete needs, such as where a status's texts move.
 */
export function ConfirmDelete({
  what,
  onConfirm,
  extra,
  verb = 'Delete',
  quiet = true,
  question,
}: {
  what: string;
  verb?: string;
  /** What the confirmation asks, when "{verb} {what} for good?" does not fit (a replacement). */
  question?: string;
  /** The button shows only the verb (the row already names what); screen readers hear both. */
  quiet?: boolean;
  onConfirm: () => Promise<boolean>;
  extra?: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const group = useRef<HTMLSpanElement>(null);
  // Where focus goes once a delete is done: the confirmation (and soon the row) is gone, and the
  // focus with it, so the keyboard stays in the section.
  const after = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
    else if (after.current && (!document.activeElement || document.activeElement === document.body)) {
      after.current.focus();
      after.current = null;
    }
  }, [asking]);
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        {verb}
        {quiet ? <span className="visually-hidden"> {what}</span> : ` ${what}`}
      </button>
    );
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of controls, not a form field set
    <span ref={group} role="group" aria-label={`Confirm: ${verb.toLowerCase()} ${what}`} className="confirm">
      <span>{question ?? `${verb} ${what} for good?`}</span>
      {extra}
      <button
        type="button"
        className="danger"
        onClick={async () => {
          const section = group.current?.closest<HTMLElement>('.settings-section') ?? null;
          if (!(await onConfirm())) return;
          after.current = section;
          setAsking(false);
        }}
      >
        Yes, {verb.toLowerCase()} {what}
      </button>
      <button type="button" ref={cancel} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** A section of the settings page: its heading names it for screen readers and the page's index. */
export function SettingsSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    // tabIndex -1: the page's index links and a finished delete move focus here.
    <section id={id} aria-labelledby={`${id}-heading`} className="settings-section" tabIndex={-1}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}

/** Words a button's visible label leaves to its row, for screen readers (and tests) only. */
export function Hidden({ children }: { children: ReactNode }) {
  return <span className="visually-hidden">{children}</span>;
}

/** The text of a form field, trimmed; "" when absent. */
export const field = (form: FormData, name: string) => String(form.get(name) ?? '').trim();
