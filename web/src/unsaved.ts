// One registry of unsaved edits for the whole app: any form marks itself dirty under its own key,
// and every place that leaves (opening another text, another page, closing the tab) asks first.

const dirtyKeys = new Set<string>();

export const LEAVE_MESSAGE = 'You have unsaved changes. Leave without saving?';

function onBeforeUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = '';
}

let guardInstalled = false;

function syncGuard(): void {
  if (typeof window === 'undefined') return;
  const want = dirtyKeys.size > 0;
  if (want && !guardInstalled) {
    window.addEventListener('beforeunload', onBeforeUnload);
    guardInstalled = true;
  } else if (!want && guardInstalled) {
    window.removeEventListener('beforeunload', onBeforeUnload);
    guardInstalled = false;
  }
}

/** Marks (or clears) the unsaved edits of one form, named by a key of its own. */
export function setUnsaved(key: string, dirty: boolean): void {
  if (dirty) dirtyKeys.add(key);
  else dirtyKeys.delete(key);
  syncGuard();
}

export function hasUnsaved(): boolean {
  return dirtyKeys.size > 0;
}

/**
 * True when leaving is fine: nothing unsaved, or the writer agreed to drop the edits (which are
 * then forgotten, so the next question is not asked twice for the same edits).
 */
export function confirmLeave(): boolean {
  if (dirtyKeys.size === 0) return true;
  const leave = typeof window !== 'undefined' && window.confirm(LEAVE_MESSAGE);
  if (leave) {
    dirtyKeys.clear();
    syncGuard();
  }
  return leave;
}
