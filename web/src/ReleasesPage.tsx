import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api, messageOf } from './api';
import { FORMATS } from './exportFiles';
import { can, type Role } from './roles';
import { ConfirmDelete, ErrorText, field, Hidden, useAction } from './settings/common';
import type { WorkspaceData } from './useWorkspaceData';

/** The project developer ID a filter or a distribution uses for the library's components. */
const LIBRARY = '_library';

interface Release {
  name: string;
  filter: { projects?: string[]; library?: boolean; statuses?: string[]; variants?: string[] };
  components: number;
  textItems: number;
  createdBy: string;
  createdAt: string;
  previous: string | null;
}

interface DiffValue {
  text: string;
  plurals: { form: string; text: string }[] | null;
}
interface DiffKey {
  kind: 'component' | 'textItem';
  id: string;
  variantId: string | null;
}
interface Diff {
  from: string;
  to: string;
  added: (DiffKey & { value: DiffValue })[];
  changed: (DiffKey & { before: DiffValue; after: DiffValue })[];
  removed: (DiffKey & { value: DiffValue })[];
}

interface Distribution {
  name: string;
  projects: string[];
  formats: string[];
  release: string | null;
  publishedAt: string | null;
  revoked: boolean;
}

const checked = (form: FormData, name: string) => form.getAll(name).map(String);
const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * The Releases page (`/releases`): the workspace's releases, a new one from a filter (editors and
 * admins), the diff of a selected release to the one before it or to the current text, and, for
 * admins, the distributions that deliver releases to apps: a new token (shown once), publish,
 * revoke, and the delivery URLs to copy. Everything goes through the public API
 * (docs/releases.md); a refusal shows the API's message beside the form that sent it.
 */
export function ReleasesPage({ data, role }: { data: WorkspaceData; role: Role }) {
  const [releases, setReleases] = useState<Release[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const canEdit = can(role, 'edit');
  const isAdmin = can(role, 'admin');

  const load = useCallback(async () => {
    try {
      setReleases((await api.get<{ releases: Release[] }>('releases')).releases);
      setLoadError(null);
    } catch (e) {
      setLoadError(messageOf(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const current = releases.find((r) => r.name === selected) ?? null;
  return (
    <main className="page releases-page">
      <h1>Releases</h1>
      <p>A release freezes reviewed text under a name; apps fetch it through a distribution's delivery URLs.</p>
      <ErrorText error={loadError} />
      {canEdit && (
        <NewRelease
          data={data}
          onCreated={async (name) => {
            await load();
            setSelected(name);
          }}
        />
      )}
      <section aria-labelledby="release-list-heading">
        <h2 id="release-list-heading">All releases</h2>
        {releases.length === 0 ? (
          <p>No release yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Made by</th>
                <th scope="col">When</th>
                <th scope="col">Texts</th>
              </tr>
            </thead>
            <tbody>
              {[...releases].reverse().map((r) => (
                <tr key={r.name} aria-current={r.name === selected ? 'true' : undefined}>
                  <td>
                    <button type="button" onClick={() => setSelected(r.name)} aria-pressed={r.name === selected}>
                      {r.name}
                    </button>
                  </td>
                  <td>{r.createdBy}</td>
                  <td>{when(r.createdAt)}</td>
                  <td>{r.textItems + r.components}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {current && <ReleaseDiff key={current.name} release={current} />}
      {isAdmin && <Distributions data={data} releases={releases} selected={selected} />}
    </main>
  );
}

function NewRelease({ data, onCreated }: { data: WorkspaceData; onCreated: (name: string) => Promise<void> }) {
  // A refusal reads as the app shows API errors (`messageOf`: without the body path).
  const action = useAction(messageOf);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = field(form, 'name');
    const projects = checked(form, 'project');
    const variants = checked(form, 'variant');
    const filter = {
      projects: projects.filter((p) => p !== LIBRARY),
      library: projects.includes(LIBRARY),
      statuses: checked(form, 'status'),
      // Every variant checked: no restriction, so that a variant added later is in later releases.
      ...(variants.length === data.variants.length ? {} : { variants }),
    };
    if (await action.run(() => api.post('releases', { name, filter }))) {
      formElement.reset();
      await onCreated(name);
    }
  };
  return (
    <section aria-labelledby="new-release-heading">
      <h2 id="new-release-heading">New release</h2>
      <form onSubmit={submit} className="release-form">
        <label>
          Name <input name="name" required maxLength={64} placeholder="2026.12.1" />
        </label>
        <fieldset>
          <legend>Projects</legend>
          {data.projects.map((p) => (
            <label className="check" key={p.id}>
              <input type="checkbox" name="project" value={p.id} defaultChecked /> {p.name}
            </label>
          ))}
          <label className="check">
            <input type="checkbox" name="project" value={LIBRARY} defaultChecked /> Component library
          </label>
        </fieldset>
        <fieldset>
          <legend>Statuses</legend>
          {data.statuses.map((s) => (
            <label className="check" key={s.id}>
              <input type="checkbox" name="status" value={s.id} defaultChecked={s.id === 'FINAL'} /> {s.name}
            </label>
          ))}
        </fieldset>
        {data.variants.length > 0 && (
          <fieldset>
            <legend>Variants</legend>
            {data.variants.map((v) => (
              <label className="check" key={v.id}>
                <input type="checkbox" name="variant" value={v.id} defaultChecked /> {v.name}
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" disabled={action.busy}>
          Create release
        </button>
        <ErrorText error={action.error} />
      </form>
    </section>
  );
}

const shown = (v: DiffValue) => (v.plurals?.length ? v.plurals.map((p) => `${p.form}: ${p.text}`).join(' · ') : v.text);
const keyOf = (k: DiffKey) => `${k.kind === 'component' ? 'component' : 'text'} ${k.id} (${k.variantId ?? 'base'})`;

function ReleaseDiff({ release }: { release: Release }) {
  const [against, setAgainst] = useState<'previous' | 'current'>(release.previous ? 'previous' : 'current');
  const [diff, setDiff] = useState<Diff | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const query =
      against === 'previous' && release.previous
        ? `from=${encodeURIComponent(release.previous)}&to=${encodeURIComponent(release.name)}`
        : `from=${encodeURIComponent(release.name)}&to=current`;
    setDiff(null);
    api
      .get<Diff>(`releases/diff?${query}`)
      .then((d) => {
        if (!live) return;
        setDiff(d);
        setError(null);
      })
      .catch((e) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [release, against]);
  const title =
    against === 'previous' && release.previous
      ? `Changes from ${release.previous} to ${release.name}`
      : `Changes from ${release.name} to the current text`;
  return (
    <section aria-labelledby="release-diff-heading" className="release-diff">
      <h2 id="release-diff-heading">{title}</h2>
      <label>
        Compare with{' '}
        <select value={against} onChange={(e) => setAgainst(e.target.value as 'previous' | 'current')}>
          {release.previous && <option value="previous">the previous release ({release.previous})</option>}
          <option value="current">the current text</option>
        </select>
      </label>
      <ErrorText error={error} />
      {!diff && !error && <p aria-busy="true">Loading…</p>}
      {diff && diff.added.length + diff.changed.length + diff.removed.length === 0 && <p>No change.</p>}
      {diff && diff.added.length > 0 && (
        <>
          <h3>Added ({diff.added.length})</h3>
          <ul aria-label="Added">
            {diff.added.map((a) => (
              <li key={keyOf(a)}>
                <code>{keyOf(a)}</code>: <ins>{shown(a.value)}</ins>
              </li>
            ))}
          </ul>
        </>
      )}
      {diff && diff.changed.length > 0 && (
        <>
          <h3>Changed ({diff.changed.length})</h3>
          <ul aria-label="Changed">
            {diff.changed.map((c) => (
              <li key={keyOf(c)}>
                <code>{keyOf(c)}</code>: <del>{shown(c.before)}</del> → <ins>{shown(c.after)}</ins>
              </li>
            ))}
          </ul>
        </>
      )}
      {diff && diff.removed.length > 0 && (
        <>
          <h3>Removed ({diff.removed.length})</h3>
          <ul aria-label="Removed">
            {diff.removed.map((r) => (
              <li key={keyOf(r)}>
                <code>{keyOf(r)}</code>: <del>{shown(r.value)}</del>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="copy-field">
      <label>
        {label} <input readOnly value={value} size={Math.min(90, value.length)} onFocus={(e) => e.target.select()} />
      </label>
      <button
        type="button"
        onClick={() =>
          navigator.clipboard
            ?.writeText(value)
            .then(() => setCopied(true))
            .catch(() => setCopied(false))
        }
      >
        Copy<Hidden> {label}</Hidden>
      </button>
      {copied && <span role="status">Copied</span>}
    </div>
  );
}

function Distributions({
  data,
  releases,
  selected,
}: {
  data: WorkspaceData;
  releases: Release[];
  selected: string | null;
}) {
  const [list, setList] = useState<Distribution[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [token, setToken] = useState<{ name: string; token: string } | null>(null);
  const create = useAction(messageOf);
  const publish = useAction(messageOf);
  const revoke = useAction(messageOf);

  const load = useCallback(async () => {
    try {
      setList((await api.get<{ distributions: Distribution[] }>('distributions')).distributions);
      setLoadError(null);
    } catch (e) {
      setLoadError(messageOf(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const body = { name: field(form, 'name'), projects: checked(form, 'project'), formats: checked(form, 'format') };
    let made: { name: string; token: string } | null = null;
    if (await create.run(async () => (made = await api.post<{ name: string; token: string }>('distributions', body)))) {
      formElement.reset();
      setToken(made);
      await load();
    }
  };

  // The one token this page knows is the one it just made; the URLs of another distribution need the app's own copy.
  const origin = window.location.origin;
  return (
    <section aria-labelledby="distributions-heading">
      <h2 id="distributions-heading">Distributions</h2>
      <p>A distribution is a read-only token for apps, limited to some projects and formats.</p>
      <ErrorText error={loadError} />
      <form onSubmit={submit} className="release-form" aria-labelledby="new-distribution-heading">
        <h3 id="new-distribution-heading">New distribution</h3>
        <label>
          Name <input name="name" required maxLength={64} placeholder="web-app" />
        </label>
        <fieldset>
          <legend>Projects it can read</legend>
          {data.projects.map((p) => (
            <label className="check" key={p.id}>
              <input type="checkbox" name="project" value={p.id} /> {p.name}
            </label>
          ))}
          <label className="check">
            <input type="checkbox" name="project" value={LIBRARY} /> Component library
          </label>
        </fieldset>
        <fieldset>
          <legend>Formats</legend>
          {FORMATS.map((f) => (
            <label className="check" key={f}>
              <input type="checkbox" name="format" value={f} /> {f}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.busy}>
          Create distribution
        </button>
        <ErrorText error={create.error} />
      </form>
      {token && (
        <section className="token-once" aria-label={`Token of ${token.name}`}>
          <p>
            The token of <strong>{token.name}</strong>, shown this once: keep it where your app's configuration is.
          </p>
          <CopyField label="Token" value={token.token} />
          {(() => {
            const d = list.find((x) => x.name === token.name);
            const release = selected ?? 'latest';
            if (!d) return null;
            const project = d.projects[0] ?? LIBRARY;
            const format = d.formats[0] ?? 'json_i18next';
            const base = `${origin}/delivery/${token.token}/${encodeURIComponent(release)}`;
            return (
              <>
                <p>
                  Delivery URLs for release <strong>{release}</strong>
                  {selected ? '' : ' (select a release above to pin one)'}:
                </p>
                <CopyField label="Manifest URL" value={`${base}/manifest.json`} />
                <CopyField
                  label="File URL"
                  value={`${base}/base/${encodeURIComponent(format)}/${encodeURIComponent(project)}`}
                />
              </>
            );
          })()}
        </section>
      )}
      {list.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Projects</th>
              <th scope="col">Formats</th>
              <th scope="col">Latest</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((d) => (
              <tr key={d.name}>
                <td>{d.name}</td>
                <td>{d.projects.join(', ')}</td>
                <td>{d.formats.join(', ')}</td>
                <td>{d.revoked ? 'revoked' : (d.release ?? 'nothing published')}</td>
                <td>
                  {!d.revoked && (
                    <>
                      <button
                        type="button"
                        disabled={!selected || publish.busy}
                        onClick={() =>
                          void publish.run(async () => {
                            await api.post(`distributions/${encodeURIComponent(d.name)}/publish`, {
                              release: selected,
                            });
                            await load();
                          })
                        }
                      >
                        Publish {selected ?? 'the selected release'}
                        <Hidden> to {d.name}</Hidden>
                      </button>{' '}
                      <ConfirmDelete
                        what={d.name}
                        verb="Revoke"
                        onConfirm={() =>
                          revoke.run(async () => {
                            await api.delete(`distributions/${encodeURIComponent(d.name)}`);
                            await load();
                          })
                        }
                      />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorText error={publish.error ?? revoke.error} />
      {releases.length === 0 && <p>Make a release first: a distribution serves releases.</p>}
    </section>
  );
}
