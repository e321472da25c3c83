import { type FormEvent, useState } from 'react';
import { withFilter } from './api';
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
        <label>
          Variant
          <select name="variant" defaultValue="">
            <option value="">Base text</option>
            {data.variants.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Project (text items)
          <select name="project" defaultValue="">
            <option value="">Every project</option>
            {data.projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status" defaultValue="">
            <option value="">Any status</option>
            {data.statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
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
