import { type FormEvent, useState } from 'react';
import { api } from './api';
import { SelectField } from './SelectField';
import type { WorkspaceData } from './useWorkspaceData';

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

interface ImportReport {
  dryRun: boolean;
  created: string[];
  updated: string[];
  unchanged: string[];
  skipped: { key: string; variantId?: string; reason: string }[];
  warnings: { key: string; message: string }[];
}

/** Import: one file into a project or the library; Preview asks for the plan, Import writes it. */
export function ImportPage({ data, canEdit }: { data: WorkspaceData; canEdit: boolean }) {
  const [format, setFormat] = useState('json_i18next');
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (form: HTMLFormElement, dryRun: boolean) => {
    setError(null);
    setReport(null);
    const fields = new FormData(form);
    const file = fields.get('file');
    if (!(file instanceof File) || file.size === 0) {
      setError('Choose a file to import');
      return;
    }
    const target = String(fields.get('target'));
    const variant = String(fields.get('variant'));
    const body: Record<string, unknown> = { format, content: await file.text(), dryRun };
    if (target === 'library') body.library = true;
    else body.projectId = target;
    if (variant) body.variantId = variant;
    if (format === 'csv') {
      const text = String(fields.get('csvText') ?? '');
      body.columns = { key: String(fields.get('csvKey') ?? ''), ...(text ? { text } : {}) };
    }
    setBusy(true);
    try {
      setReport(await api.post<ImportReport>('import', body));
      if (!dryRun) data.reload();
    } catch (e) {
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
        <p>Importing changes texts: a viewer cannot import.</p>
      </main>
    );
  return (
    <main className="page">
      <h1>Import</h1>
      <form className="card" onSubmit={onSubmit} aria-busy={busy}>
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
          <select name="target" defaultValue={data.projects[0]?.id ?? 'library'}>
            {data.projects.map((p) => (
              <option key={p.id} value={p.id}>
                Project: {p.name}
              </option>
            ))}
            <option value="library">Component library</option>
          </select>
        </label>
        <SelectField label="Variant" name="variant" emptyLabel="Base text" options={data.variants} />
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
        </div>
      </form>
      {report && <ImportResult report={report} />}
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
