import { useVirtualizer } from '@tanstack/react-virtual';
import { forwardRef, type KeyboardEvent, type MouseEvent, useEffect, useImperativeHandle, useRef } from 'react';
import type { Text } from './model';

const ROW_PX = 60;

const STATE_WORDS: Record<string, string> = { missing: 'missing', outdated: 'outdated', upToDate: 'up to date' };
const STATE_MARKS: Record<string, string> = { missing: '○', outdated: '◐', upToDate: '●' };

export interface ListHandle {
  focus: () => void;
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
    texts: Text[];
    open: string | null;
    active: string | null;
    selection: ReadonlySet<string>;
    /** Per text, its state in each shown variant: [variant name, state]. */
    states?: (text: Text) => [string, string][];
    /** A status's name for its id. */
    statusName?: (id: string) => string;
    onActive: (developerId: string) => void;
    onOpen: (developerId: string) => void;
    onToggle: (developerId: string, range: boolean) => void;
  }
>(function TextList({ texts, open, active, selection, states, statusName, onActive, onOpen, onToggle }, handle) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: texts.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 10,
  });
  useImperativeHandle(handle, () => ({ focus: () => scroller.current?.focus() }), []);
  const cursor = active ?? open;
  const index = texts.findIndex((t) => t.developerId === cursor);

  // The row under the cursor stays in view (after a reload of the page too).
  useEffect(() => {
    if (index >= 0) virtual.scrollToIndex(index, { align: 'auto' });
  }, [index, virtual]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    const step = key === 'ArrowDown' || key === 'j' ? 1 : key === 'ArrowUp' || key === 'k' ? -1 : 0;
    const current = texts[index];
    if (step && texts.length > 0) {
      event.preventDefault();
      const next = index === -1 ? 0 : Math.min(texts.length - 1, Math.max(0, index + step));
      const text = texts[next];
      if (text) {
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

  const onRowClick = (event: MouseEvent, text: Text) => {
    onActive(text.developerId);
    if (event.shiftKey) onToggle(text.developerId, true);
    else if (event.ctrlKey || event.metaKey) onToggle(text.developerId, false);
    else onOpen(text.developerId);
  };

  if (texts.length === 0) return <p className="muted empty-list">No texts here.</p>;
  return (
    <div
      ref={scroller}
      className="scroller"
      role="listbox"
      aria-label="Texts"
      aria-multiselectable="true"
      tabIndex={0}
      aria-activedescendant={index >= 0 ? `row-${texts[index]?.developerId}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((row) => {
          const text = texts[row.index];
          if (!text) return null;
          const id = text.developerId;
          const checked = selection.has(id);
          const marks = states?.(text) ?? [];
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
                <span className="row-text">{text.base.text || '(empty)'}</span>
                <span className="row-meta">
                  {text.name ?? id}
                  {text.blockName ? ` · ${text.blockName}` : ''} · {statusName?.(text.base.status) ?? text.base.status}
                  {marks.map(([variant, state]) => (
                    <span key={variant} className={`state state-${state}`}>
                      {' '}
                      {STATE_MARKS[state] ?? ''} {variant} {STATE_WORDS[state] ?? state}
                    </span>
                  ))}
                </span>
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
});
