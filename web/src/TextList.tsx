import { useVirtualizer } from '@tanstack/react-virtual';
import { forwardRef, type KeyboardEvent, type MouseEvent, useEffect, useImperativeHandle, useRef } from 'react';

const ROW_PX = 60;

const STATE_WORDS: Record<string, string> = { missing: 'missing', outdated: 'outdated', upToDate: 'up to date' };
const STATE_MARKS: Record<string, string> = { missing: '○', outdated: '◐', upToDate: '●' };

export interface ListHandle {
  focus: () => void;
}

/** What a row shows of a text: the list reads rows by position, whether all are held or a window of them. */
export interface ListItem {
  developerId: string;
  /** The base text (plain). */
  text: string;
  name: string | null;
  blockName: string | null;
  status: string;
}

/**
 * The texts of a project or folder, virtualised: only the rows in view are in the page. The
 * keyboard moves a cursor (arrows, J/K) without opening anything; Enter opens the text under it,
 * Space or X adds it to the selection. A click opens; Ctrl/Cmd+click and a click on the box at
 * the start of a row add to the selection; Shift+click selects the range from the last one.
 */
export const TextList = forwardRef<
  ListHandle,
  {
    /** How many rows the list has (those not read yet show as loading). */
    count: number;
    itemAt: (index: number) => ListItem | undefined;
    indexOf: (developerId: string) => number;
    /** The rows in view changed (first and last index): the caller reads what it lacks. */
    onRange?: (start: number, end: number) => void;
    open: string | null;
    active: string | null;
    selection: ReadonlySet<string>;
    /** Per text, its state in each shown variant: [variant name, state]. */
    states?: (item: ListItem) => [string, string][];
    /** A status's name for its id. */
    statusName?: (id: string) => string;
    /** Per text, its unresolved comment threads. */
    openComments?: (developerId: string) => number;
    /** Pending suggestions per text: a badge beside the comments'. */
    openSuggestions?: (developerId: string) => number;
    /** Who else has the text open: their initials on the row. */
    present?: (developerId: string) => { key: string; initials: string; name: string }[];
    onActive: (developerId: string) => void;
    onOpen: (developerId: string) => void;
    onToggle: (developerId: string, range: boolean) => void;
  }
>(function TextList(
  {
    count,
    itemAt,
    indexOf,
    onRange,
    open,
    active,
    selection,
    states,
    statusName,
    openComments,
    openSuggestions,
    present,
    onActive,
    onOpen,
    onToggle,
  },
  handle,
) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 10,
  });
  useImperativeHandle(handle, () => ({ focus: () => scroller.current?.focus() }), []);
  const cursor = active ?? open;
  const index = cursor === null ? -1 : indexOf(cursor);
  const items = virtual.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    onRange?.(first, last);
  }, [onRange, first, last]);

  // The row under the cursor stays in view (after a reload of the page too).
  useEffect(() => {
    if (index >= 0) virtual.scrollToIndex(index, { align: 'auto' });
  }, [index, virtual]);

  // The cursor as the keys last moved it: keys pressed faster than the list renders each step
  // still move one row each.
  const cursorIndex = useRef(index);
  cursorIndex.current = index;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    const step = key === 'ArrowDown' || key === 'j' ? 1 : key === 'ArrowUp' || key === 'k' ? -1 : 0;
    const at = cursorIndex.current;
    const current = at >= 0 ? itemAt(at) : undefined;
    if (step && count > 0) {
      event.preventDefault();
      const next = at === -1 ? 0 : Math.min(count - 1, Math.max(0, at + step));
      const text = itemAt(next);
      if (text) {
        cursorIndex.current = next;
        onActive(text.developerId);
        if (event.shiftKey) onToggle(text.developerId, true);
      }
    } else if (key === 'Enter' && current) {
      event.preventDefault();
      onOpen(current.developerId);
    } else if ((key === ' ' || key === 'x') && current) {
      event.preventDefault();
      onToggle(current.developerId, false);
    }
  };

  const onRowClick = (event: MouseEvent, text: ListItem) => {
    onActive(text.developerId);
    if (event.shiftKey) onToggle(text.developerId, true);
    else if (event.ctrlKey || event.metaKey) onToggle(text.developerId, false);
    else onOpen(text.developerId);
  };

  if (count === 0) return <p className="muted empty-list">No texts here.</p>;
  return (
    <div
      ref={scroller}
      className="scroller"
      role="listbox"
      aria-label="Texts"
      aria-multiselectable="true"
      tabIndex={0}
      aria-activedescendant={index >= 0 && itemAt(index) ? `row-${itemAt(index)?.developerId}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {items.map((row) => {
          const text = itemAt(row.index);
          if (!text)
            return (
              <div
                key={`loading-${row.index}`}
                aria-hidden="true"
                className="row loading"
                style={{ transform: `translateY(${row.start}px)`, height: ROW_PX }}
              >
                <span className="row-body muted">Loading…</span>
              </div>
            );
          const id = text.developerId;
          const checked = selection.has(id);
          const marks = states?.(text) ?? [];
          const threads = openComments?.(id) ?? 0;
          const suggestions = openSuggestions?.(id) ?? 0;
          const here = present?.(id) ?? [];
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keys.
            <div
              key={id}
              id={`row-${id}`}
              role="option"
              tabIndex={-1}
              aria-selected={checked}
              aria-current={id === open ? 'true' : undefined}
              className={`row${id === cursor ? ' cursor' : ''}${id === open ? ' open' : ''}`}
              style={{ transform: `translateY(${row.start}px)`, height: ROW_PX }}
              onClick={(event) => onRowClick(event, text)}
            >
              <span
                className={`check${checked ? ' on' : ''}`}
                aria-hidden="true"
                onClick={(event) => {
                  event.stopPropagation();
                  onActive(id);
                  onToggle(id, event.shiftKey);
                }}
              >
                {checked ? '✓' : ''}
              </span>
              <span className="row-body">
                <span className="row-text">{text.text || '(empty)'}</span>
                <span className="row-meta">
                  {text.name ?? id}
                  {text.blockName ? ` · ${text.blockName}` : ''} · {statusName?.(text.status) ?? text.status}
                  {marks.map(([variant, state]) => (
                    <span key={variant} className={`state state-${state}`}>
                      {' '}
                      {STATE_MARKS[state] ?? ''} {variant} {STATE_WORDS[state] ?? state}
                    </span>
                  ))}
                  {threads > 0 && (
                    <span className="comment-badge">
                      {' '}
                      {threads} open {threads === 1 ? 'comment' : 'comments'}
                    </span>
                  )}
                  {suggestions > 0 && (
                    <span className="suggestion-badge">
                      {' '}
                      {suggestions} {suggestions === 1 ? 'suggestion' : 'suggestions'}
                    </span>
                  )}
                  {here.length > 0 && <PresenceBadges people={here} />}
                </span>
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
});

/** Who else has a text open, as initials; their names for the pointer and for screen readers. */
export function PresenceBadges({ people }: { people: { key: string; initials: string; name: string }[] }) {
  const names = [...new Set(people.map((p) => p.name))];
  return (
    <span className="presence" title={`Open for ${names.join(', ')}`}>
      <span className="visually-hidden">Open for {names.join(', ')}</span>
      {people.map((p) => (
        <span key={p.key} className="avatar" aria-hidden="true">
          {p.initials}
        </span>
      ))}
    </span>
  );
}
