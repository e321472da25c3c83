import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { messageOf, undoRevision } from './writes';

/** How long a done write can be undone from its toast (it stays restorable from history after). */
export const UNDO_MS = 45_000;

interface Toast {
  id: number;
  message: string;
  revision: string | null;
  state: 'open' | 'undoing' | 'undone' | 'failed';
  error?: string;
}

type Offer = (message: string, revision: string | null) => void;
const ToastContext = createContext<{ offer: Offer; afterUndo: (fn: () => void) => void }>({
  offer: () => undefined,
  afterUndo: () => undefined,
});

/** `offer(message, revision)`: a toast "message · Undo" that undoes that write when asked. */
export const useToast = () => useContext(ToastContext);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const listeners = useRef<(() => void)[]>([]);

  const drop = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const offer = useCallback<Offer>(
    (message, revision) => {
      const id = next.current++;
      setToasts((all) => [...all.slice(-2), { id, message, revision, state: 'open' }]);
      window.setTimeout(() => drop(id), UNDO_MS);
    },
    [drop],
  );
  const afterUndo = useCallback((fn: () => void) => {
    listeners.current = [fn];
  }, []);

  const undo = async (toast: Toast) => {
    if (!toast.revision) return;
    setToasts((all) => all.map((t) => (t.id === toast.id ? { ...t, state: 'undoing' } : t)));
    try {
      await undoRevision(toast.revision);
      setToasts((all) => all.map((t) => (t.id === toast.id ? { ...t, state: 'undone' } : t)));
      for (const fn of listeners.current) fn();
      window.setTimeout(() => drop(toast.id), 5000);
    } catch (e) {
      setToasts((all) => all.map((t) => (t.id === toast.id ? { ...t, state: 'failed', error: messageOf(e) } : t)));
    }
  };

  return (
    <ToastContext.Provider value={{ offer, afterUndo }}>
      {children}
      <section className="toasts" aria-label="Notifications" aria-live="polite">
        {toasts.map((t) => (
          <ToastRow key={t.id} toast={t} onUndo={() => void undo(t)} onDismiss={() => drop(t.id)} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

function ToastRow({ toast, onUndo, onDismiss }: { toast: Toast; onUndo: () => void; onDismiss: () => void }) {
  const [left, setLeft] = useState(Math.round(UNDO_MS / 1000));
  useEffect(() => {
    const timer = window.setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <div className="toast" role="status">
      <span>
        {toast.state === 'undone' ? `Undone: ${toast.message}` : toast.message}
        {toast.state === 'failed' && <span className="error"> · Undo failed: {toast.error}</span>}
      </span>
      {toast.revision && toast.state !== 'undone' && (
        <button type="button" disabled={toast.state === 'undoing'} onClick={onUndo} title={`${left} s left`}>
          Undo
        </button>
      )}
      <button type="button" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
