import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useRef } from 'react';
import type { Text } from './model';

const ROW_PX = 56;

/** The texts of a project or folder, virtualised: only the rows in view are in the page. */
export function TextList({
  texts,
  selected,
  onSelect,
}: {
  texts: Text[];
  selected: string | null;
  onSelect: (developerId: string) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: texts.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 10,
  });
  const index = texts.findIndex((t) => t.developerId === selected);

  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (!step || texts.length === 0) return;
    event.preventDefault();
    const next = Math.min(texts.length - 1, Math.max(0, index + step));
    const text = texts[next];
    if (text) {
      onSelect(text.developerId);
      virtual.scrollToIndex(next);
    }
  };

  if (texts.length === 0) return <p className="muted">No texts here yet.</p>;
  return (
    <div
      ref={scroller}
      className="scroller"
      role="listbox"
      aria-label="Texts"
      tabIndex={0}
      aria-activedescendant={selected ? `row-${selected}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((row) => {
          const text = texts[row.index];
          if (!text) return null;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keys.
            <div
              key={text.developerId}
              id={`row-${text.developerId}`}
              role="option"
              tabIndex={-1}
              aria-selected={text.developerId === selected}
              className="row"
              style={{ transform: `translateY(${row.start}px)`, height: ROW_PX }}
              onClick={() => onSelect(text.developerId)}
            >
              <span className="row-text">{text.base.text || '(empty)'}</span>
              <span className="row-meta">
                {text.name ?? text.developerId}
                {text.blockName ? ` · ${text.blockName}` : ''} · {text.base.status}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
