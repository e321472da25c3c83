import { type FormEvent, useState } from 'react';
import { withFilter } from './api';
import { SelectField } from './SelectField';
import type { WorkspaceData } from './useWorkspaceData';

const FORMATS = ['json_i18next', 'json_icu', 'json_vue_i18n', 'android', 'ios-strings', 'ios-stringsdict', 'arb'];
const EXTENSIONS: Record<string, string> = {
  android: 'xml',
  'ios-strings': 'strings',
  'ios-stringsdict': 'stringsdict',
  arb: 'arb',
};

/** Export: a format, a variant and a filter; the file is downloaded as the API renders it. */
export function ExportPage({ data }: { data: WorkspaceData }) {
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    const format = String(form.get('format'));
    const kind = String(form.get('kind'));
    const variant = String(form.get('variant'));
    const status = String(form.get('status'));
    const project = String(form.get('project'));
    const filter: Record<string, unknown> = {};
    if (status) filter.statuses = [status];
    if (kind === 'textItems' && project) filter.projects = [{ id: project }];
    const extra = `&format=${encodeURIComponent(format)}${variant ? `&variantId=${encodeURIComponent(variant)}` : ''}`;
    try {
      const response = await fetch(`/v2/${withFilter(`${kind}/export`, filter, extra)}`, {
        credentials: 'same-origin',
      });
      if (!response.ok)
        throw new Error(((await response.json()) as { message?: string }).message ?? `HTTP ${response.status}`);
      const blob = await response.blob();
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `${kind}-${variant || 'base'}.${EXTENSIONS[format] ?? 'json'}`;
      document.body.append(link);
      link.click();
      link.remove();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <main className="page">
      <h1>Export</h1>
      <form className="card" onSubmit={onSubmit}>
        <label>
          What
          <select name="kind" defaultValue="textItems">
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
        <SelectField label="Variant" name="variant" emptyLabel="Base text" options={data.variants} />
        <SelectField label="Project (text items)" name="project" emptyLabel="Every project" options={data.projects} />
        <SelectField label="Status" name="status" emptyLabel="Any status" options={data.statuses} />
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit">Download</button>
      </form>
    </main>
  );
}
