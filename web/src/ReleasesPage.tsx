import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api, messageOf } from './api';
import { FORMATS } from './exportFiles';
import { can, type Role } from './roles';
import { ConfirmDelete, ErrorText, field, Hidden, useAction, useListOf } from './settings/common';
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
 * revoke, and each distribution's delivery URLs to copy (with a token kept, or a new one).
 * Everything goes through the public API (docs/releases.md); a refusal shows the API's message beside the form that sent it.
 */
export function ReleasesPage({ data, role, workspaceId }: { data: WorkspaceData; role: Role; workspaceId: number }) {
  const { items: releases, error: loadError, load } = useListOf<Release>('releases', 'releases');
  const [selected, setSelected] = useState<string | null>(null);
  const canEdit = can(role, 'edit');
  const isAdmin = can(role, 'admin');

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
      {isAdmin && <Distributions data={data} releases={releases} selected={selected} workspaceId={workspaceId} />}
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

/** One file a token can fetch, as the delivery manifest lists it. */
interface ManifestFile {
  project: string;
  variant: string;
  format: string;
}
interface Manifest {
  distribution: string;
  release: string;
  files: ManifestFile[];
}

/**
 * The delivery manifest of a token and release, fetched as an app would (no session, no API):
 * the one place the page sends a token, and the proof that the token is live.
 */
async function manifestOf(token: string, release: string): Promise<Manifest> {
  const response = await fetch(`/delivery/${encodeURIComponent(token)}/${encodeURIComponent(release)}/manifest.json`, {
    cache: 'no-store',
    credentials: 'omit',
  });
  if (response.status === 404) throw new Error('No live distribution has this token: mistyped, replaced or revoked.');
  if (!response.ok) throw new Error(`The delivery URL answered HTTP ${response.status}.`);
  return (await response.json()) as Manifest;
}

/**
 * A token pasted for a distribution, kept in this tab's sessionStorage only (gone when the tab
 * closes), under the workspace and the distribution's name. Storage may be unavailable (a
 * locked-down browser): the page then simply asks again.
 */
const keptKey = (workspaceId: number, name: string) => `copydesk.deliveryToken.${workspaceId}.${name}`;
const keptTokens = {
  get(key: string): string | null {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, token: string | null): void {
    try {
      if (token === null) sessionStorage.removeItem(key);
      else sessionStorage.setItem(key, token);
    } catch {
      // Not kept: the page asks for the token again next time.
    }
  },
};

/**
 * The delivery URLs of a token, to copy: its manifest and every file (project, variant, format)
 * it may fetch, pinned to `release` and, once something is published, as `latest`.
 */
function DeliveryUrls({
  distribution,
  token,
  release,
}: {
  distribution: Distribution;
  token: string;
  release: string;
}) {
  const published = distribution.release;
  const [manifests, setManifests] = useState<{ pinned: Manifest; latest: Manifest | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setManifests(null);
    setError(null);
    Promise.all([manifestOf(token, release), published ? manifestOf(token, 'latest') : null])
      .then(([pinned, latest]) => live && setManifests({ pinned, latest }))
      .catch((e) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [token, release, published]);
  const list = (segment: string, manifest: Manifest) => {
    const base = `${window.location.origin}/delivery/${encodeURIComponent(token)}/${encodeURIComponent(segment)}`;
    return (
      <>
        <CopyField label={`${segment}/manifest.json`} value={`${base}/manifest.json`} />
        {manifest.files.length === 0 && <p>No file of {manifest.release} is in this token's projects and formats.</p>}
        {manifest.files.map(({ project, variant, format }) => {
          const path = `${variant}/${format}/${project}`;
          const url = `${base}/${[variant, format, project].map(encodeURIComponent).join('/')}`;
          return <CopyField key={path} label={`${segment}/${path}`} value={url} />;
        })}
      </>
    );
  };
  return (
    <div className="delivery-urls">
      <ErrorText error={error} />
      {!manifests && !error && <p aria-busy="true">Loading…</p>}
      {manifests && (
        <>
          <h4>Pinned to {release}: these files never change</h4>
          {list(release, manifests.pinned)}
          {manifests.latest ? (
            <>
              <h4>latest, now {published}: moves when you publish</h4>
              {list('latest', manifests.latest)}
            </>
          ) : (
            <p>
              Nothing is published to {distribution.name} yet: its <code>latest</code> URLs answer once you publish a
              release.
            </p>
          )}
        </>
      )}
    </div>
  );
}

/**
 * How an admin gets a distribution's delivery URLs: the server keeps only a hash of a token, so
 * the URLs need the token itself, either the one shown once (just made or just replaced), or one
 * the admin kept (pasted, checked through the delivery manifest, kept in this tab), or a new one.
 */
function DeliveryPanel({
  distribution,
  release,
  workspaceId,
  once,
  onIssued,
}: {
  distribution: Distribution;
  /** The release the URLs pin and the check reads; null while the workspace has none. */
  release: string | null;
  workspaceId: number;
  /** The token shown this once, when the page just made it. */
  once: string | null;
  /** Told of a new token, to show this once. */
  onIssued: (made: { name: string; token: string }) => void;
}) {
  const { name } = distribution;
  const storageKey = keptKey(workspaceId, name);
  const [kept, setKept] = useState<string | null>(() => (once ? null : keptTokens.get(storageKey)));
  const check = useAction(messageOf);
  const reissue = useAction(messageOf);
  const onceRef = useRef<HTMLElement>(null);
  useEffect(() => {
    // A token just made: focus (and scroll) to it, the one time it is shown.
    if (once) onceRef.current?.focus();
  }, [once]);
  const keep = (token: string | null) => {
    keptTokens.set(storageKey, token);
    setKept(token);
  };

  const submitKept = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const token = field(new FormData(event.currentTarget), 'token');
    const ok = await check.run(async () => {
      if (!release) throw new Error('Make a release first: the check reads its manifest.');
      const manifest = await manifestOf(token, release);
      if (manifest.distribution !== name) throw new Error(`That token is ${manifest.distribution}'s, not ${name}'s.`);
    });
    if (ok) keep(token);
  };

  const urls = (token: string) =>
    release ? (
      <DeliveryUrls distribution={distribution} token={token} release={release} />
    ) : (
      <p>Make a release first: a distribution serves releases.</p>
    );
  const headingId = `delivery-${name}-heading`;
  return (
    <section aria-labelledby={headingId} className="delivery-panel" id={`delivery-${name}`}>
      <h3 id={headingId}>Delivery URLs of {name}</h3>
      <p>
        The URLs hold the token, and copydesk keeps only a hash of it: it cannot show a token again. Use the token your
        app was given, or issue a new one.
      </p>
      {once ? (
        <section className="token-once" aria-label={`Token of ${name}`} ref={onceRef} tabIndex={-1}>
          <p>
            The token of <strong>{name}</strong>, shown this once: keep it where your app's configuration is.
          </p>
          <CopyField label="Token" value={once} />
          {urls(once)}
        </section>
      ) : kept ? (
        <>
          <p>
            With the token you gave, kept in this browser tab only.{' '}
            <button type="button" onClick={() => keep(null)}>
              Forget the token<Hidden> of {name}</Hidden>
            </button>
          </p>
          {urls(kept)}
        </>
      ) : (
        <form onSubmit={submitKept} className="release-form" aria-labelledby={`${headingId}-kept`}>
          <h4 id={`${headingId}-kept`}>Use a token I kept</h4>
          <label>
            Token <input name="token" required maxLength={200} autoComplete="off" spellCheck={false} />
          </label>
          <p>
            The page checks it against {name} through its delivery manifest URL, then keeps it in this browser tab's
            session storage only (gone when the tab closes); it is never sent to the API.
          </p>
          <button type="submit" disabled={check.busy}>
            Show URLs<Hidden> of {name}</Hidden>
          </button>
          <ErrorText error={check.error} />
        </form>
      )}
      <h4>Issue a new token</h4>
      <p>A new token replaces the old one: apps still using the old one stop getting text at once.</p>
      <ConfirmDelete
        what={`for ${name}`}
        verb="Issue a new token"
        question={`Issue a new token for ${name}? The old one stops working at once.`}
        onConfirm={() =>
          reissue.run(async () => {
            const path = `distributions/${encodeURIComponent(name)}/token`;
            const made = await api.post<{ name: string; token: string }>(path, undefined);
            // The old token stops now: a copy kept for it is of no more use.
            keep(null);
            onIssued(made);
          })
        }
      />
      <ErrorText error={reissue.error} />
    </section>
  );
}

function Distributions({
  data,
  releases,
  selected,
  workspaceId,
}: {
  data: WorkspaceData;
  releases: Release[];
  selected: string | null;
  workspaceId: number;
}) {
  const { items: list, error: loadError, load } = useListOf<Distribution>('distributions', 'distributions');
  // The token the page just made (a new distribution's, or a replacement): shown this once.
  const [token, setToken] = useState<{ name: string; token: string } | null>(null);
  // The distribution whose delivery URLs are open.
  const [open, setOpen] = useState<string | null>(null);
  const create = useAction(messageOf);
  const publish = useAction(messageOf);
  const revoke = useAction(messageOf);

  const shown = (made: { name: string; token: string }) => {
    setToken(made);
    setOpen(made.name);
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const body = { name: field(form, 'name'), projects: checked(form, 'project'), formats: checked(form, 'format') };
    let made: { name: string; token: string } | null = null;
    if (await create.run(async () => (made = await api.post<{ name: string; token: string }>('distributions', body)))) {
      formElement.reset();
      await load();
      if (made) shown(made);
    }
  };

  const opened = list.find((d) => d.name === open && !d.revoked) ?? null;
  // The release the URLs pin: the one selected above, else the one published, else the newest.
  const release = selected ?? opened?.release ?? releases[releases.length - 1]?.name ?? null;
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
                        aria-expanded={open === d.name}
                        aria-controls={open === d.name ? `delivery-${d.name}` : undefined}
                        onClick={() => setOpen(open === d.name ? null : d.name)}
                      >
                        Delivery URLs<Hidden> of {d.name}</Hidden>
                      </button>{' '}
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
                            keptTokens.set(keptKey(workspaceId, d.name), null);
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
      {opened && (
        <DeliveryPanel
          key={opened.name}
          distribution={opened}
          release={release}
          workspaceId={workspaceId}
          once={token?.name === opened.name ? token.token : null}
          onIssued={shown}
        />
      )}
      {releases.length === 0 && <p>Make a release first: a distribution serves releases.</p>}
    </section>
  );
}
