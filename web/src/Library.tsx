import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api } from './api';
import type { Text } from './model';
import type { WorkspaceData } from './useWorkspaceData';

/** Where a text opens: a project's list or a library folder's, with the text selected. */
export type OpenTarget = { kind: 'project'; id: string } | { kind: 'folder'; id: string | null };

interface Instance {
  id: string;
  projectId: string;
  blockId: string | null;
  blockName: string | null;
  status: string;
}

/**
 * The library side of the open text: a text item can be published to the library (it then shows
 * as an instance of the new component); a component lists its instances, opens them, and is
 * placed into a project as a new instance.
 */
export function LibraryPanel({
  text,
  data,
  canEdit,
  onChanged,
  onOpen,
}: {
  text: Text;
  data: WorkspaceData;
  canEdit: boolean;
  onChanged: () => Promise<void>;
  onOpen?: (where: OpenTarget, developerId: string) => void;
}) {
  if (text.kind === 'component') {
    return <Instances component={text} data={data} canEdit={canEdit} onOpen={onOpen} />;
  }
  if (text.componentId) return <InstanceNote text={text} canEdit={canEdit} onChanged={onChanged} />;
  if (!canEdit) return null;
  return <PublishForm text={text} data={data} onChanged={onChanged} />;
}

/** What an instance is, and a way to make it a text of its own. */
function InstanceNote({ text, canEdit, onChanged }: { text: Text; canEdit: boolean; onChanged: () => Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  const detach = async () => {
    setError(null);
    try {
      await api.post('textItems/instances/detach', { developerIds: [text.developerId] });
      await onChanged();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <div className="library">
      <p className="muted">
        This text is an instance of the library component <code>{text.componentId}</code>: its text, plural forms and
        variant texts are the component’s and follow its edits.
      </p>
      {canEdit && (
        <button type="button" onClick={() => void detach()}>
          Detach from the component
        </button>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Folders by their path (`Shop / Buttons`), for a select. */
function folderOptions(folders: WorkspaceData['folders']) {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const path = (id: string | null): string => {
    const folder = id === null ? undefined : byId.get(id);
    return folder ? (folder.parentId ? `${path(folder.parentId)} / ${folder.name}` : folder.name) : '';
  };
  return folders.map((f) => ({ id: f.id, name: path(f.id) })).sort((a, b) => a.name.localeCompare(b.name));
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

function PublishForm({ text, data, onChanged }: { text: Text; data: WorkspaceData; onChanged: () => Promise<void> }) {
  const [name, setName] = useState(text.developerId);
  const [folderId, setFolderId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.post('components/publish', {
        textItemId: text.developerId,
        name: name.trim() || text.developerId,
        folderId: folderId || null,
      });
      // The list read again shows the item as the new component's instance.
      await onChanged();
      data.reload();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="library">
      <summary>Publish to the library</summary>
      <form aria-label="Publish to the library" onSubmit={(e) => void submit(e)}>
        <p className="muted">
          A new component gets this text, its variants and plural forms; this text becomes its first instance.
        </p>
        <label>
          Component name
          <input value={name} required onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Folder
          <select value={folderId} onChange={(e) => setFolderId(e.target.value)}>
            <option value="">Library root</option>
            {folderOptions(data.folders).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Publish
        </button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </details>
  );
}

function Instances({
  component,
  data,
  canEdit,
  onOpen,
}: {
  component: Text;
  data: WorkspaceData;
  canEdit: boolean;
  onOpen?: (where: OpenTarget, developerId: string) => void;
}) {
  const [instances, setInstances] = useState<Instance[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = component.developerId;

  const load = useCallback(async () => {
    try {
      setInstances(await api.get<Instance[]>(`textItems/instances?componentId=${encodeURIComponent(id)}`));
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);

  const projectName = (projectId: string) => data.projects.find((p) => p.id === projectId)?.name ?? projectId;

  return (
    <section className="library" aria-label="Instances">
      <h3>Instances</h3>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {instances === null ? (
        <p className="muted">Loading…</p>
      ) : instances.length === 0 ? (
        <p className="muted">Not used in any project yet.</p>
      ) : (
        <ul className="instances" aria-label={`Instances of ${id}`}>
          {instances.map((i) => (
            <li key={i.id}>
              <button type="button" onClick={() => onOpen?.({ kind: 'project', id: i.projectId }, i.id)}>
                Open {i.id}
              </button>{' '}
              in {projectName(i.projectId)}
              {i.blockName ? `, block ${i.blockName}` : ''} · {i.status}
            </li>
          ))}
        </ul>
      )}
      {canEdit && <PlaceForm componentId={id} data={data} onPlaced={load} />}
    </section>
  );
}

function PlaceForm({
  componentId,
  data,
  onPlaced,
}: {
  componentId: string;
  data: WorkspaceData;
  onPlaced: () => Promise<void>;
}) {
  const [projectId, setProjectId] = useState('');
  const [blocks, setBlocks] = useState<{ id: string; name: string }[]>([]);
  const [blockId, setBlockId] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setBlockId('');
    setBlocks([]);
    if (!projectId) return;
    api
      .get<{ id: string; name: string }[]>(`projectBlocks?projectId=${encodeURIComponent(projectId)}`)
      .then(setBlocks)
      .catch(() => setBlocks([]));
  }, [projectId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    try {
      const placed = await api.post<{ developerId: string }>('textItems/instances', {
        componentId,
        projectId,
        ...(blockId ? { blockId } : {}),
      });
      const project = data.projects.find((p) => p.id === projectId)?.name ?? projectId;
      setStatus(`Placed in ${project} as ${placed.developerId}.`);
      await onPlaced();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <form className="place" aria-label="Place in a project" onSubmit={(e) => void submit(e)}>
      <h4>Place in a project</h4>
      <label>
        Project
        <select value={projectId} required onChange={(e) => setProjectId(e.target.value)}>
          <option value="">Choose a project…</option>
          {data.projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Block
        <select value={blockId} disabled={blocks.length === 0} onChange={(e) => setBlockId(e.target.value)}>
          <option value="">No block (after the blocks)</option>
          {blocks.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={!projectId}>
        Place instance
      </button>
      {status && <p role="status">{status}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}
