import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { messageOf } from './writes';

export interface Field {
  name: string;
  label: string;
  type?: 'text' | 'checkbox' | 'select';
  value?: string | boolean;
  required?: boolean;
  options?: readonly { id: string; name: string }[];
  hint?: string;
}

/**
 * A modal form in a native <dialog> (showModal: focus moves in, Esc closes, the page behind is
 * inert). The fields' values go to `onSubmit`; when it throws, its message (the API's 400 or 409)
 * shows under the form and the dialog stays open with what was typed.
 */
export function FormDialog({
  title,
  submitLabel,
  fields,
  children,
  danger,
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  fields: Field[];
  children?: ReactNode;
  danger?: boolean;
  onSubmit: (values: Record<string, string | boolean>) => Promise<void>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const errorId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values: Record<string, string | boolean> = {};
    for (const field of fields) {
      const input = form.elements.namedItem(field.name) as HTMLInputElement | HTMLSelectElement | null;
      if (!input) continue;
      values[field.name] = field.type === 'checkbox' ? (input as HTMLInputElement).checked : String(input.value).trim();
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(values);
      onClose();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form method="dialog" onSubmit={(e) => void submit(e)} aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        {children}
        {fields.map((field) => {
          const id = `${titleId}-${field.name}`;
          const hintId = field.hint ? `${id}-hint` : '';
          const described = [hintId, error ? errorId : ''].join(' ').trim() || undefined;
          if (field.type === 'checkbox')
            return (
              <div key={field.name} className="check">
                <input type="checkbox" id={id} name={field.name} defaultChecked={field.value === true} />
                <label htmlFor={id}>{field.label}</label>
              </div>
            );
          return (
            <div key={field.name} className="field">
              <label htmlFor={id}>{field.label}</label>
              {field.type === 'select' ? (
                <select id={id} name={field.name} defaultValue={String(field.value ?? '')} required={field.required}>
                  {(field.options ?? []).map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={id}
                  name={field.name}
                  defaultValue={String(field.value ?? '')}
                  required={field.required}
                  aria-describedby={described}
                />
              )}
              {field.hint && (
                <span className="muted small" id={hintId}>
                  {field.hint}
                </span>
              )}
            </div>
          );
        })}
        {error && (
          <p role="alert" className="error" id={errorId}>
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={danger ? 'danger' : undefined} disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
