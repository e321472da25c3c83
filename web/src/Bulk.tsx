import { FormDialog } from './Dialog';
import { JSON_FORMATS, keepKeys } from './exportSelection';
import { MoveComponentsDialog, MoveTextsDialog, type Organise } from './Organise';
import { useToast } from './Toast';
import { messageOf, write } from './writes';

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const splitTags = (value: string | boolean | undefined) =>
  String(value ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * What the selected texts can have done to them together: each is one request, all or nothing,
 * and can be undone from the message that follows.
 */
export function BulkBar({
  o,
  kind,
  projectId,
  ids,
  canEdit,
  onClear,
}: {
  o: Organise;
  kind: 'textItem' | 'component';
  projectId: string | null;
  ids: string[];
  canEdit: boolean;
  onClear: () => void;
}) {
  const offer = useToast().offer;
  const path = kind === 'textItem' ? 'textItems' : 'components';
  const noun = kind === 'textItem' ? 'text' : 'component';
  const many = plural(ids.length, noun);

  const patch = async (fields: Record<string, unknown>, done: string) => {
    const { revision } = await write('PATCH', path, {
      updates: ids.map((developerId) => ({ developerId, ...fields })),
    });
    offer(`${done} on ${many}`, revision);
    await o.refresh();
  };

  const dialog = (
    title: string,
    field: Parameters<typeof FormDialog>[0]['fields'][number],
    run: (v: string) => Promise<void>,
  ) =>
    o.show(
      <FormDialog
        title={`${title}: ${many}`}
        submitLabel="Apply"
        fields={[field]}
        onSubmit={(v) => run(String(v[field.name] ?? ''))}
        onClose={o.close}
      />,
    );

  const exportSelection = () =>
    o.show(
      <FormDialog
        title={`Export ${many}`}
        submitLabel="Download"
        fields={[
          {
            name: 'format',
            label: 'Format',
            type: 'select',
            value: 'json_i18next',
            options: JSON_FORMATS.map((f) => ({ id: f, name: f })),
          },
          {
            name: 'variant',
            label: 'Variant',
            type: 'select',
            value: '',
            options: [{ id: '', name: 'Base text' }, ...o.data.variants.map((v) => ({ id: v.id, name: v.name }))],
          },
        ]}
        onSubmit={async (v) => {
          // The export's filter selects by project and folder, not by ID: the file of the whole
          // project (or library) is read, and only the chosen keys are written to the download.
          const filter = kind === 'textItem' && projectId ? { projects: [{ id: projectId }] } : {};
          const query = `filter=${encodeURIComponent(JSON.stringify(filter))}&format=${encodeURIComponent(String(v.format))}${v.variant ? `&variantId=${encodeURIComponent(String(v.variant))}` : ''}`;
          const response = await fetch(`/v2/${path}/export?${query}`, { credentials: 'same-origin' });
          const body = await response.text();
          if (!response.ok) throw new Error(messageOf(JSON.parse(body)?.message ?? `HTTP ${response.status}`));
          const kept = keepKeys(JSON.parse(body) as Record<string, unknown>, new Set(ids));
          const link = document.createElement('a');
          link.href = URL.createObjectURL(
            new Blob([`${JSON.stringify(kept, null, 2)}\n`], { type: 'application/json' }),
          );
          const name = kind === 'textItem' ? (projectId ?? 'texts') : 'components';
          link.download = `${name}-selection${v.variant ? `-${v.variant}` : ''}.${v.format === 'arb' ? 'arb' : 'json'}`;
          document.body.append(link);
          link.click();
          link.remove();
        }}
        onClose={o.close}
      />,
    );

  return (
    <div role="toolbar" aria-label="Selection" className="bulk">
      <strong>{many} selected</strong>
      {canEdit && (
        <>
          <button
            type="button"
            onClick={() =>
              dialog(
                'Set status',
                {
                  name: 'status',
                  label: 'Status',
                  type: 'select',
                  value: o.data.statuses[0]?.id ?? '',
                  options: o.data.statuses,
                },
                (status) =>
                  patch({ status }, `Status ${o.data.statuses.find((s) => s.id === status)?.name ?? status} set`),
              )
            }
          >
            Set status
          </button>
          <button
            type="button"
            onClick={() =>
              dialog(
                'Set assignee',
                {
                  name: 'assignee',
                  label: 'Assignee',
                  type: 'select',
                  value: '',
                  options: [
                    { id: '', name: 'Nobody' },
                    ...o.data.users.map((u) => ({ id: u.email, name: u.name || u.email })),
                  ],
                },
                (assignee) =>
                  patch({ assignee: assignee || null }, assignee ? `Assigned to ${assignee}` : 'Unassigned'),
              )
            }
          >
            Set assignee
          </button>
          <button
            type="button"
            onClick={() =>
              dialog('Add tags', { name: 'tags', label: 'Tags (comma separated)', required: true }, (tags) =>
                patch({ addTags: splitTags(tags) }, `Tags ${splitTags(tags).join(', ')} added`),
              )
            }
          >
            Add tags
          </button>
          <button
            type="button"
            onClick={() =>
              dialog('Remove tags', { name: 'tags', label: 'Tags (comma separated)', required: true }, (tags) =>
                patch({ removeTags: splitTags(tags) }, `Tags ${splitTags(tags).join(', ')} removed`),
              )
            }
          >
            Remove tags
          </button>
          <button
            type="button"
            onClick={() =>
              o.show(
                kind === 'textItem' && projectId ? (
                  <MoveTextsDialog o={o} projectId={projectId} ids={ids} onDone={onClear} />
                ) : (
                  <MoveComponentsDialog o={o} ids={ids} onDone={onClear} />
                ),
              )
            }
          >
            Move
          </button>
        </>
      )}
      <button type="button" onClick={exportSelection}>
        Export
      </button>
      {canEdit && (
        <button
          type="button"
          onClick={() =>
            o.show(
              <FormDialog
                title={`Delete ${many}?`}
                submitLabel="Yes, delete"
                danger
                fields={[]}
                onSubmit={async () => {
                  const { revision } = await write('DELETE', path, { developerIds: ids });
                  offer(`Deleted ${many}`, revision);
                  onClear();
                  await o.refresh();
                }}
                onClose={o.close}
              >
                <p>{ids.slice(0, 10).join(', ') + (ids.length > 10 ? ', …' : '')}</p>
                <p className="muted">
                  You can undo this for a while from the message that follows, and later from History.
                </p>
              </FormDialog>,
            )
          }
        >
          Delete
        </button>
      )}
      <button type="button" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}
