import { type ComponentProps, type ReactNode, useEffect, useState } from 'react';
import { api } from './api';
import { type Field, FormDialog } from './Dialog';
import type { Text } from './model';
import { blockUrl, componentUrl, folderUrl, projectUrl, textUrl } from './routes';
import { useToast } from './Toast';
import type { WorkspaceData } from './useWorkspaceData';
import { write } from './writes';

export interface Block {
  id: string;
  name: string;
}

/** What every create/rename/move/delete needs: the workspace, a way to go somewhere, to read again. */
export interface Organise {
  data: WorkspaceData;
  go: (to: string) => void;
  /** Reads the list, the blocks and the workspace again. */
  refresh: () => Promise<void>;
  show: (dialog: ReactNode) => void;
  close: () => void;
}

/** The dialog on screen (at most one) and how to show or close it. */
export function useDialogs(): [ReactNode, (d: ReactNode) => void, () => void] {
  const [dialog, setDialog] = useState<ReactNode>(null);
  return [dialog, setDialog, () => setDialog(null)];
}

const optional = (value: string | boolean | undefined) =>
  typeof value === 'string' && value !== '' ? value : undefined;
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Folders by their path (`Shop / Buttons`), for a select; `except` and its descendants left out. */
export function folderOptions(folders: WorkspaceData['folders'], except?: string) {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const path = (id: string | null): string => {
    const folder = id === null ? undefined : byId.get(id);
    return folder ? (folder.parentId ? `${path(folder.parentId)} / ${folder.name}` : folder.name) : '';
  };
  const inside = (id: string | null): boolean => {
    for (let at = id; at; at = byId.get(at)?.parentId ?? null) if (at === except) return true;
    return false;
  };
  return [
    { id: '', name: 'Library root' },
    ...folders
      .filter((f) => !except || !inside(f.id))
      .map((f) => ({ id: f.id, name: path(f.id) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  ];
}

/**
 * "Rename": a dialog with the name and the developer ID (and `extra` fields); `save` gets the
 * values and the update to send, whose `newDeveloperId` is there only when the ID changed.
 */
function RenameButton({
  o,
  what,
  name,
  id,
  extra = [],
  save,
}: {
  o: Organise;
  what: string;
  name: string;
  id: string;
  extra?: Field[];
  save: (
    values: Record<string, string | boolean>,
    update: { developerId: string; name: string; newDeveloperId?: string },
    newId: string,
  ) => Promise<void>;
}) {
  return (
    <DialogButton
      o={o}
      label="Rename"
      dialog={() => ({
        title: `Rename ${what} ${name}`,
        submitLabel: 'Save',
        fields: [
          { name: 'name', label: 'Name', value: name, required: true },
          { name: 'developerId', label: 'Developer ID', value: id, required: true },
          ...extra,
        ],
        onSubmit: async (v) => {
          const newId = String(v.developerId);
          const update = {
            developerId: id,
            name: String(v.name),
            ...(newId !== id ? { newDeveloperId: newId } : {}),
          };
          await save(v, update, newId);
        },
      })}
    />
  );
}

function Toolbar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="toolbar" aria-label={label} className="tools">
      {children}
    </div>
  );
}

function confirmDelete(o: Organise, what: string, detail: string, run: () => Promise<void>) {
  o.show(
    <FormDialog title={`Delete ${what}?`} submitLabel="Yes, delete" danger fields={[]} onSubmit={run} onClose={o.close}>
      <p>{detail}</p>
      <p className="muted">You can undo this for a while from the message that follows, and later from History.</p>
    </FormDialog>,
  );
}

/** What a form dialog is given, but for `onClose` (the dialog closes through `o.close`). */
type DialogProps = Omit<ComponentProps<typeof FormDialog>, 'onClose'>;

/** A button that opens a form dialog; the dialog is made when the button is clicked. */
function DialogButton({
  o,
  label,
  className,
  dialog,
}: {
  o: Organise;
  label: string;
  className?: string;
  dialog: () => DialogProps;
}) {
  return (
    <button type="button" className={className} onClick={() => o.show(<FormDialog {...dialog()} onClose={o.close} />)}>
      {label}
    </button>
  );
}

/** A button that shows a dialog of its own (a move, whose choices are read when it opens). */
function ShowButton({ o, label, dialog }: { o: Organise; label: string; dialog: () => ReactNode }) {
  return (
    <button type="button" onClick={() => o.show(dialog())}>
      {label}
    </button>
  );
}

/** "Delete", asking first (`confirmDelete`). */
function DeleteButton({
  o,
  what,
  detail,
  run,
}: {
  o: Organise;
  what: string;
  detail: string;
  run: () => Promise<void>;
}) {
  return (
    <button type="button" onClick={() => confirmDelete(o, what, detail, run)}>
      Delete
    </button>
  );
}

/** "New project" in the sidebar. */
export function NewProjectButton({ o }: { o: Organise }) {
  const offer = useToast().offer;
  return (
    <DialogButton
      o={o}
      label="New project"
      className="new"
      dialog={() => ({
        title: 'New project',
        submitLabel: 'Create project',
        fields: [
          { name: 'name', label: 'Name', required: true },
          { name: 'developerId', label: 'Developer ID (optional)', hint: 'Made from the name when empty' },
          { name: 'developerMode', label: 'Developer mode (the old v0/v1 APIs can reach it)', type: 'checkbox' },
        ],
        onSubmit: async (v) => {
          const { data, revision } = await write<{ developerIds: string[] }>('POST', 'projects', {
            projects: [{ name: v.name, developerId: optional(v.developerId), developerMode: v.developerMode === true }],
          });
          offer(`Created project ${v.name}`, revision);
          o.data.reload();
          o.go(projectUrl(data.developerIds[0] ?? ''));
        },
      })}
    />
  );
}

export function NewTextButton({ o, projectId, blockId }: { o: Organise; projectId: string; blockId: string | null }) {
  const offer = useToast().offer;
  return (
    <DialogButton
      o={o}
      label="New text"
      dialog={() => ({
        title: 'New text',
        submitLabel: 'Create text',
        fields: [
          { name: 'text', label: 'Text', required: true },
          { name: 'developerId', label: 'Developer ID (optional)', hint: 'Made from the first words when empty' },
        ],
        onSubmit: async (v) => {
          const { data, revision } = await write<{ developerIds: string[] }>('POST', 'textItems', {
            projectId,
            textItems: [{ text: v.text, developerId: optional(v.developerId), ...(blockId ? { blockId } : {}) }],
          });
          offer(`Created text ${data.developerIds[0]}`, revision);
          await o.refresh();
          o.go(textUrl(projectId, data.developerIds[0] ?? ''));
        },
      })}
    />
  );
}

/** The project's own actions, above its list. */
export function ProjectTools({ o, projectId, canEdit }: { o: Organise; projectId: string; canEdit: boolean }) {
  const offer = useToast().offer;
  const project = o.data.projects.find((p) => p.id === projectId) as
    | { id: string; name: string; developerMode?: boolean }
    | undefined;
  if (!canEdit || !project) return null;
  const name = project.name;
  return (
    <Toolbar label="Project">
      <NewTextButton o={o} projectId={projectId} blockId={null} />
      <DialogButton
        o={o}
        label="New block"
        dialog={() => ({
          title: 'New block',
          submitLabel: 'Create block',
          fields: [
            { name: 'name', label: 'Name', required: true },
            { name: 'developerId', label: 'Developer ID (optional)' },
          ],
          onSubmit: async (v) => {
            const { data, revision } = await write<{ developerIds: string[] }>('POST', 'projectBlocks', {
              projectId,
              blocks: [{ name: v.name, developerId: optional(v.developerId) }],
            });
            offer(`Created block ${v.name}`, revision);
            await o.refresh();
            o.go(blockUrl(projectId, data.developerIds[0] ?? ''));
          },
        })}
      />
      <RenameButton
        o={o}
        what="project"
        name={name}
        id={projectId}
        extra={[
          {
            name: 'developerMode',
            label: 'Developer mode (the old v0/v1 APIs can reach it)',
            type: 'checkbox',
            value: project.developerMode === true,
          },
        ]}
        save={async (v, update, newId) => {
          const { revision } = await write('PATCH', 'projects', {
            updates: [{ ...update, developerMode: v.developerMode === true }],
          });
          offer(`Saved project ${update.name}`, revision);
          o.data.reload();
          if (newId !== projectId) o.go(projectUrl(newId));
        }}
      />
      <DeleteButton
        o={o}
        what={`project ${name}`}
        detail={'Its blocks and text items are deleted with it.'}
        run={async () => {
          const { revision } = await write('DELETE', 'projects', { developerIds: [projectId] });
          offer(`Deleted project ${name}`, revision);
          o.data.reload();
          o.go('/');
        }}
      />
    </Toolbar>
  );
}

export function BlockTools({
  o,
  projectId,
  block,
  canEdit,
}: {
  o: Organise;
  projectId: string;
  block: Block;
  canEdit: boolean;
}) {
  const offer = useToast().offer;
  if (!canEdit) return null;
  return (
    <Toolbar label="Block">
      <NewTextButton o={o} projectId={projectId} blockId={block.id} />
      <RenameButton
        o={o}
        what="block"
        name={block.name}
        id={block.id}
        save={async (_v, update, newId) => {
          const { revision } = await write('PATCH', 'projectBlocks', { projectId, updates: [update] });
          offer(`Renamed block ${update.name}`, revision);
          await o.refresh();
          if (newId !== block.id) o.go(blockUrl(projectId, newId));
        }}
      />
      <DeleteButton
        o={o}
        what={`block ${block.name}`}
        detail={'Its texts stay in the project, outside any block.'}
        run={async () => {
          const { revision } = await write('DELETE', 'projectBlocks', { projectId, developerIds: [block.id] });
          offer(`Deleted block ${block.name}`, revision);
          await o.refresh();
          o.go(projectUrl(projectId));
        }}
      />
    </Toolbar>
  );
}

/** The folder choices, with `id` among them even while the workspace is being read again after it was made. */
function withFolder(folders: WorkspaceData['folders'], id: string | null) {
  const options = folderOptions(folders);
  return id && !options.some((f) => f.id === id) ? [...options, { id, name: id }] : options;
}

/** The "New folder" dialog, inside `parentId` unless the writer chooses another folder. */
function newFolderDialog(
  o: Organise,
  parentId: string | null,
  offer: ReturnType<typeof useToast>['offer'],
): DialogProps {
  return {
    title: 'New folder',
    submitLabel: 'Create folder',
    fields: [
      { name: 'name', label: 'Name', required: true },
      { name: 'developerId', label: 'Developer ID (optional)' },
      {
        name: 'parentId',
        label: 'Inside',
        type: 'select',
        value: parentId ?? '',
        options: withFolder(o.data.folders, parentId),
      },
    ],
    onSubmit: async (v) => {
      const { data, revision } = await write<{ developerIds: string[] }>('POST', 'componentFolders', {
        folders: [{ name: v.name, developerId: optional(v.developerId), parentId: optional(v.parentId) ?? null }],
      });
      offer(`Created folder ${v.name}`, revision);
      o.data.reload();
      o.go(folderUrl(data.developerIds[0] ?? null));
    },
  };
}

export function NewFolderButton({ o, parentId }: { o: Organise; parentId: string | null }) {
  const offer = useToast().offer;
  return <DialogButton o={o} label="New folder" className="new" dialog={() => newFolderDialog(o, parentId, offer)} />;
}

/** A folder's actions (the root has only "New component"), above its list. */
export function FolderTools({ o, folderId, canEdit }: { o: Organise; folderId: string | null; canEdit: boolean }) {
  const offer = useToast().offer;
  if (!canEdit) return null;
  const folder = o.data.folders.find((f) => f.id === folderId);
  return (
    <Toolbar label="Folder">
      <DialogButton
        o={o}
        label="New component"
        dialog={() => ({
          title: 'New component',
          submitLabel: 'Create component',
          fields: [
            { name: 'name', label: 'Name', required: true },
            { name: 'text', label: 'Text', required: true },
            { name: 'developerId', label: 'Developer ID (optional)' },
          ],
          onSubmit: async (v) => {
            const { data, revision } = await write<{ developerIds: string[] }>('POST', 'components', {
              components: [{ name: v.name, text: v.text, developerId: optional(v.developerId), folderId }],
            });
            offer(`Created component ${v.name}`, revision);
            await o.refresh();
            o.go(componentUrl(data.developerIds[0] ?? ''));
          },
        })}
      />
      {folder && (
        <>
          <RenameButton
            o={o}
            what="folder"
            name={folder.name}
            id={folder.id}
            save={async (_v, update, newId) => {
              const { revision } = await write('PATCH', 'componentFolders', { updates: [update] });
              offer(`Renamed folder ${update.name}`, revision);
              o.data.reload();
              if (newId !== folder.id) o.go(folderUrl(newId));
            }}
          />
          <DialogButton
            o={o}
            label="Move"
            dialog={() => ({
              title: `Move folder ${folder.name}`,
              submitLabel: 'Move',
              fields: [
                {
                  name: 'parentId',
                  label: 'Into',
                  type: 'select',
                  value: folder.parentId ?? '',
                  options: folderOptions(o.data.folders, folder.id),
                },
              ],
              onSubmit: async (v) => {
                const { revision } = await write('PATCH', 'componentFolders', {
                  updates: [{ developerId: folder.id, parentId: optional(v.parentId) ?? null }],
                });
                offer(`Moved folder ${folder.name}`, revision);
                o.data.reload();
              },
            })}
          />
          <DeleteButton
            o={o}
            what={`folder ${folder.name}`}
            detail={'Its components and folders move to the folder above it (or the library root).'}
            run={async () => {
              const { revision } = await write('DELETE', 'componentFolders', { developerIds: [folder.id] });
              offer(`Deleted folder ${folder.name}`, revision);
              o.data.reload();
              await o.refresh();
              o.go(folderUrl(folder.parentId));
            }}
          />
        </>
      )}
      <DialogButton o={o} label="New folder" dialog={() => newFolderDialog(o, folderId, offer)} />
    </Toolbar>
  );
}

/** Every project with its blocks, as "project / block" choices for a move. */
function useMoveTargets(projects: WorkspaceData['projects']) {
  const [targets, setTargets] = useState<{ id: string; name: string }[] | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all(
      projects.map(async (p) => {
        const blocks = await api.get<Block[]>(`projectBlocks?projectId=${encodeURIComponent(p.id)}`).catch(() => []);
        return [
          { id: `${p.id}\u0000`, name: `${p.name} (no block)` },
          ...blocks.map((b) => ({ id: `${p.id}\u0000${b.id}`, name: `${p.name} / ${b.name}` })),
        ];
      }),
    ).then((lists) => live && setTargets(lists.flat()));
    return () => {
      live = false;
    };
  }, [projects]);
  return targets;
}

/** Moves text items to a block of their project or of another one: one request. */
export function MoveTextsDialog({
  o,
  projectId,
  ids,
  onDone,
}: {
  o: Organise;
  projectId: string;
  ids: string[];
  onDone?: () => void;
}) {
  const offer = useToast().offer;
  const targets = useMoveTargets(o.data.projects);
  if (!targets) return null;
  return (
    <FormDialog
      title={ids.length === 1 ? `Move ${ids[0]}` : `Move ${plural(ids.length, 'text')}`}
      submitLabel="Move"
      fields={[{ name: 'target', label: 'To', type: 'select', value: `${projectId}\u0000`, options: targets }]}
      onSubmit={async (v) => {
        const [toProject = projectId, toBlock = ''] = String(v.target).split('\u0000');
        const { revision } = await write('PATCH', 'textItems', {
          updates: ids.map((developerId) =>
            toProject === projectId
              ? { developerId, blockId: toBlock || null }
              : { developerId, projectId: toProject, ...(toBlock ? { blockId: toBlock } : {}) },
          ),
        });
        offer(`Moved ${ids.length === 1 ? ids[0] : plural(ids.length, 'text')}`, revision);
        await o.refresh();
        onDone?.();
        if (ids.length === 1 && toProject !== projectId) o.go(textUrl(toProject, ids[0] ?? ''));
      }}
      onClose={o.close}
    />
  );
}

export function MoveComponentsDialog({ o, ids, onDone }: { o: Organise; ids: string[]; onDone?: () => void }) {
  const offer = useToast().offer;
  return (
    <FormDialog
      title={ids.length === 1 ? `Move ${ids[0]}` : `Move ${plural(ids.length, 'component')}`}
      submitLabel="Move"
      fields={[{ name: 'folderId', label: 'To', type: 'select', value: '', options: folderOptions(o.data.folders) }]}
      onSubmit={async (v) => {
        const folderId = optional(v.folderId) ?? null;
        const { revision } = await write('PATCH', 'components', {
          updates: ids.map((developerId) => ({ developerId, folderId })),
        });
        offer(`Moved ${ids.length === 1 ? ids[0] : plural(ids.length, 'component')}`, revision);
        await o.refresh();
        onDone?.();
      }}
      onClose={o.close}
    />
  );
}

/** The create body of a copy of `text` (its variants and plural forms included), as rich text. */
function copyOf(text: Text, developerId: string, blockId: string | null) {
  return {
    developerId,
    text: text.base.richText,
    notes: text.base.notes || null,
    tags: text.tags,
    status: text.base.status,
    assignee: text.base.assignee,
    characterLimit: text.base.characterLimit,
    ...(blockId ? { blockId } : {}),
    ...(text.base.plurals.length
      ? { plurals: text.base.plurals.map((p) => ({ form: p.form, text: p.richText })) }
      : {}),
    ...(text.variants.size
      ? {
          variants: [...text.variants].map(([variantId, v]) => ({
            variantId,
            text: v.richText,
            status: v.status,
            ...(v.plurals.length ? { plurals: v.plurals.map((p) => ({ form: p.form, text: p.richText })) } : {}),
          })),
        }
      : {}),
  };
}

/** The open text item's actions: Duplicate, Move, Rename (its developer ID), Delete. */
export function TextTools({
  o,
  text,
  projectId,
  blocks,
  canEdit,
}: {
  o: Organise;
  text: Text;
  projectId: string;
  blocks: Block[];
  canEdit: boolean;
}) {
  const offer = useToast().offer;
  if (!canEdit) return null;
  const id = text.developerId;
  const blockId = blocks.find((b) => b.name === text.blockName)?.id ?? null;
  return (
    <Toolbar label="Text">
      <DialogButton
        o={o}
        label="Duplicate"
        dialog={() => ({
          title: `Duplicate ${id}`,
          submitLabel: 'Duplicate',
          fields: [{ name: 'developerId', label: 'Developer ID of the copy', value: `${id}-copy`, required: true }],
          onSubmit: async (v) => {
            const { data, revision } = await write<{ developerIds: string[] }>('POST', 'textItems', {
              projectId,
              richText: 'html',
              textItems: [copyOf(text, String(v.developerId), blockId)],
            });
            offer(`Duplicated ${id}`, revision);
            await o.refresh();
            o.go(textUrl(projectId, data.developerIds[0] ?? ''));
          },
        })}
      />
      <ShowButton o={o} label="Move" dialog={() => <MoveTextsDialog o={o} projectId={projectId} ids={[id]} />} />
      <DialogButton
        o={o}
        label="Rename"
        dialog={() => ({
          title: `Change the developer ID of ${id}`,
          submitLabel: 'Save',
          fields: [{ name: 'developerId', label: 'Developer ID', value: id, required: true }],
          onSubmit: async (v) => {
            const newId = String(v.developerId);
            if (newId === id) return;
            const { revision } = await write('PATCH', 'textItems', {
              updates: [{ developerId: id, newDeveloperId: newId }],
            });
            offer(`Renamed ${id} to ${newId}`, revision);
            await o.refresh();
            o.go(textUrl(projectId, newId));
          },
        })}
      />
      <DeleteButton
        o={o}
        what={id}
        detail={`“${text.base.text}” and its variants are deleted.`}
        run={async () => {
          const { revision } = await write('DELETE', 'textItems', { developerIds: [id] });
          offer(`Deleted ${id}`, revision);
          await o.refresh();
          o.go(projectUrl(projectId));
        }}
      />
    </Toolbar>
  );
}

/** The open component's actions: Rename (name, developer ID), Move, Delete. */
export function ComponentTools({ o, text, canEdit }: { o: Organise; text: Text; canEdit: boolean }) {
  const offer = useToast().offer;
  if (!canEdit) return null;
  const id = text.developerId;
  return (
    <Toolbar label="Component">
      <RenameButton
        o={o}
        what="component"
        name={text.name ?? id}
        id={id}
        save={async (_v, update, newId) => {
          const { revision } = await write('PATCH', 'components', { updates: [update] });
          offer(`Renamed component ${update.name}`, revision);
          await o.refresh();
          if (newId !== id) o.go(componentUrl(newId));
        }}
      />
      <ShowButton o={o} label="Move" dialog={() => <MoveComponentsDialog o={o} ids={[id]} />} />
      <DeleteButton
        o={o}
        what={`component ${text.name ?? id}`}
        detail={'It leaves the library; you can undo this.'}
        run={async () => {
          const { revision } = await write('DELETE', 'components', { developerIds: [id] });
          offer(`Deleted component ${text.name ?? id}`, revision);
          await o.refresh();
          o.go(folderUrl(text.folderId));
        }}
      />
    </Toolbar>
  );
}
