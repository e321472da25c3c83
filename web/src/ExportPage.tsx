import { type FormEvent, useEffect, useRef, useState } from 'react';
import { withFilter } from './api';
import { download, exportFileName, FORMATS, zipFiles } from './exportFiles';
import { SelectField } from './SelectField';
import type { WorkspaceData } from './useWorkspaceData';

/** The variant select's value that means "every variant, base text included, in one zip". */
const EVERY_VARIANT = '*every';

interface Part {
  /** The file's name, as the command-line puller names it. */
  name: string;
  url: string;
}

/** The files one export makes: one per project (text items) and per variant. */
function partsOf(form: FormData, data: WorkspaceData): Part[] {
  const format = String(form.get('format'));
  const kind = String(form.get('kind'));
  const variant = String(form.get('variant'));
  const status = String(form.get('status'));
  const project = String(form.get('project') ?? '');
  const folder = String(form.get('folder') ?? '');
  const richText = form.get('richText') === 'on';
  const variants: (string | null)[] =
    variant === EVERY_VARIANT ? [null, ...data.variants.map((v) => v.id)] : [variant || null];
  const prefixes = kind === 'components' ? ['components'] : project ? [project] : data.projects.map((p) => p.id);
  const parts: Part[] = [];
  for (const prefix of prefixes) {
    const filter: Record<string, unknown> = {};
    if (status) filter.statuses = [status];
    if (kind === 'textItems') filter.projects = [{ id: prefix }];
    else if (folder) filter.folders = [{ id: folder }];
    for (const variantId of variants) {
      const extra = `&format=${encodeURIComponent(format)}${variantId ? `&variantId=${encodeURIComponent(variantId)}` : ''}${richText ? '&richText=html' : ''}`;
      parts.push({
        name: exportFileName(prefix, variantId, format),
        url: `/v2/${withFilter(`${kind}/export`, filter, extra)}`,
      });
    }
  }
  return parts;
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok)
    throw new Error(((await response.json()) as { message?: string }).message ?? `HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Export: a format, a variant (or every variant as one zip), a project and a status, rich text or
 * plain; each file is named as the command-line puller names it.
 */
export function ExportPage({ data }: { data: WorkspaceData }) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [names, setNames] = useState<string[]>([]);
  const [kind, setKind] = useState('textItems');

  const formRef = useRef<HTMLFormElement>(null);
  const preview = (form: HTMLFormElement | null) => {
    if (form) setNames(partsOf(new FormData(form), data).map((p) => p.name));
  };
  // The file names once the workspace's projects and variants are read.
  // biome-ignore lint/correctness/useExhaustiveDependencies: preview reads the form, not state
  useEffect(() => preview(formRef.current), [data.projects, data.variants, kind]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    const form = new FormData(event.currentTarget);
    const parts = partsOf(form, data);
    if (parts.length === 0) {
      setError('There is no project to export yet.');
      return;
    }
    setBusy(true);
    try {
      const files = new Map<string, Uint8Array>();
      for (const part of parts) files.set(part.name, await fetchBytes(part.url));
      const [only] = parts;
      if (parts.length === 1 && only) {
        download(only.name, files.get(only.name) ?? new Uint8Array());
        setDone(`Downloaded ${only.name}.`);
      } else {
        const kind = String(form.get('kind'));
        const prefix = kind === 'components' ? 'components' : String(form.get('project')) || 'projects';
        const name = `${prefix}___${String(form.get('format'))}.zip`;
        download(name, zipFiles(files), 'application/zip');
        setDone(`Downloaded ${name} with ${files.size} files.`);
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="page">
      <h1>Export</h1>
      <form
        className="card"
        onSubmit={onSubmit}
        onChange={(e) => preview(e.currentTarget)}
        ref={formRef}
        aria-busy={busy}
      >
        <label>
          What
          <select name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="textItems">Text items</option>
            <option value="components">Components</option>
          </select>
        </label>
        <label>
          Format
          <select name="format" defaultValue="json_i18next">
            {FORMATS.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <label>
          Variant
          <select name="variant" defaultValue="">
            <option value="">Base text</option>
            {data.variants.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
            <option value={EVERY_VARIANT}>Every variant and the base text (one zip file)</option>
          </select>
        </label>
        {kind === 'textItems' ? (
          <SelectField label="Project (text items)" name="project" emptyLabel="Every project" options={data.projects} />
        ) : (
          <SelectField label="Folder" name="folder" emptyLabel="The whole library" options={data.folders} />
        )}
        <SelectField label="Status" name="status" emptyLabel="Any status" options={data.statuses} />
        <label className="checkbox">
          <input type="checkbox" name="richText" /> Rich text (bold, italic, underline and line breaks as HTML)
        </label>
        {names.length > 0 && (
          <p className="muted" id="export-files">
            {names.length === 1 ? `File: ${names[0]}` : `${names.length} files in one zip: ${names.join(', ')}`}
          </p>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Download
        </button>
        <div role="status">{done}</div>
      </form>
    </main>
  );
}
