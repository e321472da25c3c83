import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { api } from './api';
import { can, roleCannot } from './roles';
import { SelectField } from './SelectField';
import type { WorkspaceData } from './useWorkspaceData';
import './history/history.css';

// The formats POST /v2/import accepts: the export formats, nested JSON and CSV.
const FORMATS = [
  'json_i18next',
  'json_vue_i18n',
  'json_icu',
  'arb',
  'ios-strings',
  'ios-stringsdict',
  'android',
  'json_nested',
  'csv',
];

interface KeyPlan {
  key: string;
  action: 'create' | 'update' | 'unchanged' | 'skip';
  reason?: string;
  changes: { variantId?: string; field: string; before: string | null; after: string }[];
}

interface ImportReport {
  dryRun: boolean;
  created: string[];
  updated: string[];
  unchanged: string[];
  skipped: { key: string; variantId?: string; reason: string }[];
  warnings: { key: string; message: string }[];
  keys?: KeyPlan[];
}

/** Folders as "Parent / Child" paths, in tree order. */
function folderPaths(folders: WorkspaceData['folders']): { id: string; name: string }[] {
  const out: { id: string; name: string }[] = [];
  const walk = (parent: string | null, prefix: string) => {
    for (const f of folders.filter((x) => x.parentId === parent)) {
      out.push({ id: f.id, name: `${prefix}${f.name}` });
      walk(f.id, `${prefix}${f.name} / `);
    }
  };
  walk(null, '');
  return out;
}

/**
 * Import: one file into a project or the library. Preview lists every key with what the import
 * does to it (the text now and after); the writer unticks the keys to leave alone and chooses
 * the block or folder for new texts; Import writes it.
 */
export function ImportPage({ data, role }: { data: WorkspaceData; role: string }) {
  const canEdit = can(role, 'edit');
  const [format, setFormat] = useState('json_i18next');
  // The writer's choice; until then the first project (read after the page appears).
  const [chosen, setTarget] = useState<string | null>(null);
  const target = chosen ?? data.projects[0]?.id ?? 'library';
  const [blocks, setBlocks] = useState<{ id: string; name: string }[]>([]);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [skip, setSkip] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setBlocks([]);
    if (target === 'library') return;
    api
      .get<{ id: string; name: string }[]>(`projectBlocks?projectId=${encodeURIComponent(target)}`)
      .then(setBlocks)
      .catch(() => setBlocks([]));
  }, [target]);

  const run = async (form: HTMLFormElement, dryRun: boolean) => {
    setError(null);
    const fields = new FormData(form);
    const file = fields.get('file');
    if (!(file instanceof File) || file.size === 0) {
      setError('Choose a file to import');
      return;
    }
    const variant = String(fields.get('variant'));
    const place = String(fields.get('place') ?? '');
    const body: Record<string, unknown> = { format, content: await file.text(), dryRun };
    if (target === 'library') {
      body.library = true;
      if (place) body.folderId = place;
    } else {
      body.projectId = target;
      if (place) body.blockId = place;
    }
    if (variant) body.variantId = variant;
    if (fields.get('richText') === 'on') body.richText = 'html';
    if (format === 'csv') {
      const text = String(fields.get('csvText') ?? '');
      body.columns = { key: String(fields.get('csvKey') ?? ''), ...(text ? { text } : {}) };
    }
    // The keys unticked in the preview are left as they are.
    if (!dryRun && report?.dryRun && skip.size > 0) body.skip = [...skip];
    setBusy(true);
    try {
      const answer = await api.post<ImportReport>('import', body);
      setReport(answer);
      if (dryRun) setSkip(new Set());
      if (!dryRun) data.reload();
    } catch (e) {
      setReport(null);
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(event.currentTarget, false);
  };

  if (!canEdit)
    return (
      <main className="page">
        <h1>Import</h1>
        <p>Importing changes texts. {roleCannot(role, 'import', 'edit')}</p>
      </main>
    );
  const places = target === 'library' ? folderPaths(data.folders) : blocks;
  return (
    <main className="page">
      <h1>Import</h1>
      <form
        className="card"
        onSubmit={onSubmit}
        aria-busy={busy}
        // A preview is of the file and options it was made with: changing them asks for a new one.
        onChange={() => report?.dryRun && setReport(null)}
      >
        <label>
          File
          <input type="file" name="file" required />
        </label>
        <label>
          Format
          <select name="format" value={format} onChange={(e) => setFormat(e.target.value)}>
            {FORMATS.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        {format === 'csv' && (
          <>
            <label>
              CSV key column
              <input name="csvKey" required defaultValue="key" />
            </label>
            <label>
              CSV text column
              <input name="csvText" defaultValue="text" />
            </label>
          </>
        )}
        <label>
          Into
          <select name="target" value={target} onChange={(e) => setTarget(e.target.value)}>
            {data.projects.map((p) => (
              <option key={p.id} value={p.id}>
                Project: {p.name}
              </option>
            ))}
            <option value="library">Component library</option>
          </select>
        </label>
        <label>
          Place new texts in
          <select name="place" key={target} defaultValue="">
            <option value="">{target === 'library' ? 'The library root' : 'No block (the end of the project)'}</option>
            {places.map((p) => (
              <option key={p.id} value={p.id}>
                {target === 'library' ? 'Folder' : 'Block'}: {p.name}
              </option>
            ))}
          </select>
        </label>
        <SelectField label="Variant" name="variant" emptyLabel="Base text" options={data.variants} />
        <label className="checkbox">
          <input type="checkbox" name="richText" /> The texts are rich text (HTML, as exported with rich text)
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div>
          <button
            type="button"
            disabled={busy}
            onClick={(e) => {
              const form = e.currentTarget.form;
              if (form?.reportValidity()) void run(form, true);
            }}
          >
            Preview
          </button>{' '}
          <button type="submit" disabled={busy}>
            Import
          </button>
          {report?.dryRun && skip.size > 0 && (
            <span className="muted"> {skip.size} unticked keys will be left as they are.</span>
          )}
        </div>
      </form>
      {report && <ImportResult report={report} />}
      {report?.keys && report.keys.length > 0 && (
        <KeyTable
          keys={report.keys}
          preview={report.dryRun}
          skip={skip}
          onSkip={(keys, skipped) =>
            setSkip((before) => {
              const next = new Set(before);
              for (const key of keys) {
                if (skipped) next.add(key);
                else next.delete(key);
              }
              return next;
            })
          }
        />
      )}
    </main>
  );
}

function ImportResult({ report }: { report: ImportReport }) {
  const counts: [string, number][] = [
    ['Created', report.created.length],
    ['Updated', report.updated.length],
    ['Unchanged', report.unchanged.length],
    ['Skipped', report.skipped.length],
  ];
  return (
    <section className="card" aria-label="Import result" role="status">
      <h2>{report.dryRun ? 'Preview: nothing written yet' : 'Imported'}</h2>
      <dl className="counts">
        {counts.map(([name, count]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{count}</dd>
          </div>
        ))}
      </dl>
      {report.skipped.length > 0 && (
        <>
          <h3>Skipped</h3>
          <ul>
            {report.skipped.map((s) => (
              <li key={`${s.key}:${s.variantId ?? ''}`}>
                <code>{s.key}</code>
                {s.variantId ? ` (${s.variantId})` : ''}: {s.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.warnings.length > 0 && (
        <>
          <h3>Warnings</h3>
          <ul>
            {report.warnings.map((w) => (
              <li key={`${w.key}:${w.message}`}>
                <code>{w.key}</code>: {w.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

const ACTIONS: Record<KeyPlan['action'], string> = {
  create: 'New',
  update: 'Update',
  unchanged: 'Unchanged',
  skip: 'Skipped',
};
const ROWS = 200;

const valueLabel = (c: KeyPlan['changes'][number]) =>
  `${c.variantId ? `${c.variantId} ` : ''}${c.field === 'text' ? '' : c.field}`.trim();

/** Every key of the file: its action, the text now and after; in a preview, a tick to import it. */
function KeyTable({
  keys,
  preview,
  skip,
  onSkip,
}: {
  keys: KeyPlan[];
  preview: boolean;
  skip: ReadonlySet<string>;
  onSkip: (keys: string[], skipped: boolean) => void;
}) {
  const [shown, setShown] = useState(ROWS);
  const writable = useMemo(() => keys.filter((k) => k.action === 'create' || k.action === 'update'), [keys]);
  return (
    <section className="card import-keys" aria-labelledby="import-keys-title">
      <h2 id="import-keys-title">{preview ? 'What happens to each key' : 'Each key'}</h2>
      {preview && writable.length > 0 && (
        <p>
          <button
            type="button"
            onClick={() =>
              onSkip(
                writable.map((k) => k.key),
                false,
              )
            }
          >
            Tick every key
          </button>{' '}
          <button
            type="button"
            onClick={() =>
              onSkip(
                writable.map((k) => k.key),
                true,
              )
            }
          >
            Untick every key
          </button>
        </p>
      )}
      <table>
        <thead>
          <tr>
            {preview && <th scope="col">Import</th>}
            <th scope="col">Key</th>
            <th scope="col">Action</th>
            <th scope="col">Text now</th>
            <th scope="col">{preview ? 'Text after the import' : 'Text imported'}</th>
          </tr>
        </thead>
        <tbody>
          {keys.slice(0, shown).map((k) => {
            const canPick = k.action === 'create' || k.action === 'update';
            const skipped = skip.has(k.key);
            return (
              <tr key={k.key} className={skipped ? 'skipped' : undefined}>
                {preview && (
                  <td>
                    {canPick && (
                      <input
                        type="checkbox"
                        aria-label={`Import ${k.key}`}
                        checked={!skipped}
                        onChange={(e) => onSkip([k.key], !e.target.checked)}
                      />
                    )}
                  </td>
                )}
                <td>
                  <code>{k.key}</code>
                </td>
                <td>
                  {skipped ? 'Left as it is' : ACTIONS[k.action]}
                  {k.reason && <div className="muted">{k.reason}</div>}
                </td>
                <td>
                  {k.changes.map((c) => (
                    <div key={`${c.variantId ?? ''}:${c.field}`} className="import-value">
                      {valueLabel(c) && <span className="muted">{valueLabel(c)}: </span>}
                      {c.before === null ? <span className="muted">none</span> : <del>{c.before}</del>}
                    </div>
                  ))}
                </td>
                <td>
                  {k.changes.map((c) => (
                    <div key={`${c.variantId ?? ''}:${c.field}`} className="import-value">
                      {valueLabel(c) && <span className="muted">{valueLabel(c)}: </span>}
                      <ins>{c.after}</ins>
                    </div>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {keys.length > shown && (
        <button type="button" onClick={() => setShown((n) => n + ROWS)}>
          Show {Math.min(ROWS, keys.length - shown)} more keys
        </button>
      )}
    </section>
  );
}
