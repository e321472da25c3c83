import { type DragEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { api } from './api';
import type { Text } from './model';
import { groupByBlock, moveEntry, reorderSubset } from './order';
import { rolesThatCan } from './roles';

interface Entry {
  id: string;
  label: string;
}

/**
 * A project's list, or in its place the project order: its blocks, and the text items of each
 * block, reorderable by drag (native HTML5 drag and drop) and by keyboard (Alt+Arrow on a
 * focused handle, or the move buttons). Every move is one `PUT /v2/projectOrder`.
 */
/** What the order panel shows of a text. */
export type OrderText = Pick<Text, 'developerId' | 'blockName'> & { base: { text: string } };

export function ArrangeProject({
  projectId,
  loadTexts,
  version,
  canEdit,
  onChanged,
  children,
}: {
  projectId: string;
  /** Every text of the project in project order (read when the panel opens, and when `version` changes). */
  loadTexts: () => Promise<OrderText[]>;
  version: unknown;
  canEdit: boolean;
  onChanged: () => Promise<void>;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <div className="list-tools">
        <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Back to the texts' : canEdit ? 'Arrange blocks and texts' : 'Order of blocks and texts'}
        </button>
      </div>
      {open ? (
        <ProjectOrder
          projectId={projectId}
          loadTexts={loadTexts}
          version={version}
          canEdit={canEdit}
          onChanged={onChanged}
        />
      ) : (
        children
      )}
    </>
  );
}

function ProjectOrder({
  projectId,
  loadTexts,
  version,
  canEdit,
  onChanged,
}: {
  projectId: string;
  loadTexts: () => Promise<OrderText[]>;
  version: unknown;
  canEdit: boolean;
  onChanged: () => Promise<void>;
}) {
  const [blocks, setBlocks] = useState<Entry[] | null>(null);
  const [texts, setTexts] = useState<OrderText[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  // Reads and moves are counted: an answer is shown only if no later read was asked and no move
  // was made since it left. An older answer (a live re-read that left before a move was saved and
  // lands after it) would put the moved row back; the move's own re-read follows it anyway.
  const reads = useRef(0);
  const moves = useRef(0);
  // Bumped after each save: the server's order is read again whether or not \`version\` changed.
  const [round, setRound] = useState(0);
  // Read again whenever the list changes: another person may have moved something.
  useEffect(() => {
    void version;
    void round;
    const read = ++reads.current;
    const movesBefore = moves.current;
    Promise.all([
      api.get<{ id: string; name: string }[]>(`projectBlocks?projectId=${encodeURIComponent(projectId)}`),
      loadTexts(),
    ])
      .then(([list, all]) => {
        if (read !== reads.current || movesBefore !== moves.current) return;
        setBlocks(list.map((b) => ({ id: b.id, label: b.name })));
        setTexts(all);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [projectId, loadTexts, version, round]);

  // Moves are saved one after another, in the order they were made.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const save = (body: { blockIds?: string[]; textItemIds: string[] }, message: string): Promise<boolean> => {
    moves.current += 1;
    const run = async () => {
      setError(null);
      let saved = true;
      try {
        await api.put('projectOrder', { projectId, ...body });
        // What this panel holds takes the saved order at once: the rows it derives must not go
        // back to the order before the move while the server's order is read again.
        const { blockIds } = body;
        if (blockIds?.length) setBlocks((before) => before && reorderSubset(before, (b) => b.id, blockIds));
        if (body.textItemIds.length)
          setTexts((before) => reorderSubset(before, (t) => t.developerId, body.textItemIds));
        setAnnouncement(message);
      } catch (e) {
        saved = false;
        setError(e instanceof Error ? e.message : String(e));
        setAnnouncement('The order was not saved.');
      }
      await onChanged();
      setRound((r) => r + 1);
      return saved;
    };
    const next = queue.current.then(run);
    queue.current = next;
    return next;
  };

  const itemGroups = groupByBlock(
    texts,
    (blocks ?? []).map((b) => ({ id: b.id, name: b.label })),
  ).map((g) => ({ ...g, entries: g.texts.map((t) => ({ id: t.developerId, label: t.base.text || t.developerId })) }));

  return (
    <section className="project-order" aria-label="Project order">
      <h2>Order of the project</h2>
      <p className="muted" id="order-help">
        {canEdit
          ? 'Drag a row by its handle, or focus the handle and press Alt+Arrow Up or Alt+Arrow Down.'
          : `The order the project's blocks and texts are listed in; ${rolesThatCan('edit')} can change it.`}
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p aria-live="polite" role="status" className="announce">
        {announcement}
      </p>
      <h3>Blocks</h3>
      {blocks === null ? (
        <p className="muted">Loading…</p>
      ) : blocks.length === 0 ? (
        <p className="muted">This project has no blocks.</p>
      ) : (
        <OrderList
          label="Blocks"
          noun="block"
          entries={blocks}
          canEdit={canEdit}
          onMove={(order, moved, to) =>
            save(
              { blockIds: order.map((b) => b.id), textItemIds: [] },
              `Block ${moved.label} moved to position ${to + 1} of ${order.length}.`,
            )
          }
        />
      )}
      <h3>Texts in each block</h3>
      {itemGroups
        .filter((g) => g.entries.length > 0)
        .map((g) => (
          <details key={g.key} className="order-group">
            <summary>
              {g.title} ({g.entries.length})
            </summary>
            <OrderList
              label={`Texts of ${g.title}`}
              noun="text"
              entries={g.entries}
              canEdit={canEdit}
              onMove={(order, moved, to) =>
                save(
                  { textItemIds: order.map((e) => e.id) },
                  `Text ${moved.id} moved to position ${to + 1} of ${order.length} in ${g.title}.`,
                )
              }
            />
          </details>
        ))}
    </section>
  );
}

/** One reorderable list: rows with a drag handle (also the keyboard target) and move buttons. */
function OrderList({
  label,
  noun,
  entries,
  canEdit,
  onMove,
}: {
  label: string;
  noun: string;
  entries: Entry[];
  canEdit: boolean;
  /** Saves the new order; answers whether it was saved. */
  onMove: (order: Entry[], moved: Entry, to: number) => Promise<boolean>;
}) {
  // The order on screen: a move shows at once and is saved behind it. The list given by the
  // parent (the server's order) replaces it whenever it changes and no move is waiting to be saved.
  const [local, setLocal] = useState(entries);
  const pending = useRef(0);
  const latest = useRef(entries);
  latest.current = entries;
  useEffect(() => {
    if (pending.current === 0) setLocal(entries);
  }, [entries]);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  const handles = useRef(new Map<string, HTMLButtonElement>());
  const helpId = useId();

  // Keyboard moves keep the focus on the moved row's handle, wherever the row went.
  useEffect(() => {
    if (!focusAfter) return;
    handles.current.get(focusAfter)?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  const move = (from: number, to: number, keepFocus: boolean) => {
    const order = moveEntry(local, from, to);
    const moved = local[from];
    if (!moved || order === local) return;
    if (keepFocus) setFocusAfter(moved.id);
    setLocal([...order]);
    pending.current += 1;
    void onMove([...order], moved, to).then((saved) => {
      pending.current -= 1;
      // A refused move goes back to the server's order; a saved one stays until that order arrives.
      if (!saved && pending.current === 0) setLocal(latest.current);
    });
  };

  const onHandleKey = (event: KeyboardEvent, index: number) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    move(index, index + (event.key === 'ArrowUp' ? -1 : 1), true);
  };

  const drop = (event: DragEvent, index: number) => {
    event.preventDefault();
    const from = local.findIndex((e) => e.id === dragged);
    setDragged(null);
    setOver(null);
    if (from !== -1) move(from, index, false);
  };

  return (
    <>
      <span id={helpId} hidden>
        Alt+Arrow Up or Alt+Arrow Down moves the {noun}.
      </span>
      <ol className="order-list" aria-label={label}>
        {local.map((entry, index) => (
          <li
            key={entry.id}
            className={`order-row${dragged === entry.id ? ' dragging' : ''}${over === entry.id ? ' drop-target' : ''}`}
            data-id={entry.id}
            draggable={canEdit}
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', entry.id);
              setDragged(entry.id);
            }}
            onDragEnd={() => {
              setDragged(null);
              setOver(null);
            }}
            onDragOver={(event) => {
              if (dragged === null) return;
              event.preventDefault();
              event.dataTransfer.dropEffect = 'move';
              if (over !== entry.id) setOver(entry.id);
            }}
            onDrop={(event) => drop(event, index)}
          >
            {canEdit && (
              <button
                type="button"
                className="handle"
                aria-label={`Move ${noun} ${entry.label}`}
                aria-describedby={helpId}
                ref={(el) => {
                  if (el) handles.current.set(entry.id, el);
                  else handles.current.delete(entry.id);
                }}
                onKeyDown={(event) => onHandleKey(event, index)}
              >
                ⠿
              </button>
            )}
            <span className="order-label">{entry.label}</span>
            {canEdit && (
              <span className="order-buttons">
                <button
                  type="button"
                  aria-label={`Move ${entry.label} up`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1, false)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move ${entry.label} down`}
                  disabled={index === local.length - 1}
                  onClick={() => move(index, index + 1, false)}
                >
                  ↓
                </button>
              </span>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
