import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api, messageOf } from './api';
import { isRunning, type Provider, providerLabel, type TranslationJob } from './machineTranslation';
import type { WorkspaceData } from './useWorkspaceData';
import './translate.css';

/** How often a running job's progress is read. */
const POLL_MS = 1000;

/**
 * "Translate missing" for the project (or folder) shown: a job that translates every text a
 * variant lacks (and optionally has out of date) through a provider, in the background on the
 * server; its progress shows as it runs, and it can be canceled. A job already running for this
 * place is picked up again when the page is opened. Editors only, when a provider is configured.
 */
export function TranslateMissing({
  projectId,
  folderId,
  data,
  canEdit,
  onProgress,
}: {
  projectId: string | null;
  folderId: string | null;
  data: WorkspaceData;
  canEdit: boolean;
  /** While and after a job runs: the list and its figures follow. */
  onProgress: () => void;
}) {
  const [providers, setProviders] = useState<Provider[] | null>(null);
  const [open, setOpen] = useState(false);
  const [job, setJob] = useState<TranslationJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const variants = data.variants.filter((v) => v.localeCode);

  useEffect(() => {
    if (!canEdit) return;
    api
      .get<Provider[]>('machineTranslation/providers')
      .then(setProviders)
      .catch(() => setProviders([]));
    api
      .get<TranslationJob[]>('translationJobs')
      .then((jobs) => {
        const here = jobs.find(
          (j) => isRunning(j) && j.projectId === projectId && (projectId !== null || j.folderId === folderId),
        );
        setJob(here ?? null);
      })
      .catch(() => undefined);
  }, [canEdit, projectId, folderId]);

  const poll = useCallback(
    async (id: string) => {
      try {
        const next = await api.get<TranslationJob>(`translationJobs/${encodeURIComponent(id)}`);
        setJob(next);
        onProgress();
      } catch (e) {
        setError(messageOf(e));
      }
    },
    [onProgress],
  );

  const running = job !== null && isRunning(job);
  const jobId = job?.id ?? null;
  useEffect(() => {
    if (!running || jobId === null) return;
    const timer = window.setInterval(() => void poll(jobId), POLL_MS);
    return () => window.clearInterval(timer);
  }, [running, jobId, poll]);

  if (!canEdit || !providers || providers.length === 0 || variants.length === 0) return null;

  const start = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      const created = await api.post<TranslationJob>('translationJobs', {
        providerId: String(form.get('provider')),
        variantId: String(form.get('variant')),
        ...(projectId ? { projectId } : { folderId: folderId ?? 'root' }),
        landAs: String(form.get('landAs')),
        includeOutdated: form.get('outdated') === 'on',
      });
      setJob(created);
      setOpen(false);
      onProgress();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const cancel = async () => {
    if (!job) return;
    try {
      setJob(await api.post<TranslationJob>(`translationJobs/${encodeURIComponent(job.id)}/cancel`, {}));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const handled = job ? job.done + job.failed + job.skipped : 0;
  const variantName = (id: string | null) => data.variants.find((v) => v.id === id)?.name ?? id ?? '';

  return (
    <div className="translate-missing">
      {!running && !open && (
        <button type="button" onClick={() => setOpen(true)}>
          Translate missing…
        </button>
      )}
      {open && !running && (
        <form onSubmit={(e) => void start(e)} aria-label="Translate missing">
          <label>
            Into{' '}
            <select name="variant">
              {variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            With{' '}
            <select name="provider">
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {providerLabel(p)}
                </option>
              ))}
            </select>
          </label>
          <label>
            As{' '}
            <select name="landAs" defaultValue="suggestion">
              <option value="suggestion">suggestions to review</option>
              <option value="wip">the variant's texts, In Progress</option>
            </select>
          </label>
          <label>
            <input type="checkbox" name="outdated" /> Outdated texts too
          </label>
          <button type="submit">Start</button>
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </form>
      )}
      {job && (
        <div className="job">
          <progress max={Math.max(1, job.total)} value={handled} aria-label="Translation job progress" />
          <p role="status">
            {variantName(job.variantId)}: {job.done} of {job.total} translated
            {job.failed ? `, ${job.failed} failed` : ''}
            {job.skipped ? `, ${job.skipped} skipped` : ''}
            {job.state === 'done' ? ' (done)' : job.state === 'canceled' ? ' (canceled)' : ''}
            {job.state === 'failed' ? ` (stopped: ${job.error})` : ''}
          </p>
          {job.overLimit > 0 && <p className="warning">{job.overLimit} longer than their character limit.</p>}
          {running && (
            <button type="button" onClick={() => void cancel()}>
              Stop translating
            </button>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
