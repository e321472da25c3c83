import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import type { WorkspaceData } from '../useWorkspaceData';
import { ErrorText, messageOf, SettingsSection, useAction } from './common';

interface Pin {
  projectId: string;
  release: string;
  pinnedBy: string;
  pinnedAt: string;
}
interface ReleaseSummary {
  name: string;
  filter: { projects?: string[] };
}

/**
 * Pinned releases (docs/releases.md#pins): per project, the release that the API keys' reads and
 * exports of it answer, so that every puller of the team builds from it. Admins pick one from
 * the releases that hold the project, or "Current text" to unpin; the choice is saved at once.
 * Everyone else reads what is pinned. The app itself always shows the current text.
 */
export function Pins({ data, admin }: { data: WorkspaceData; admin: boolean }) {
  const [pins, setPins] = useState<Pin[]>([]);
  const [releases, setReleases] = useState<ReleaseSummary[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const action = useAction();
  const load = useCallback(async () => {
    try {
      const [p, r] = await Promise.all([
        api.get<{ pins: Pin[] }>('releasePins'),
        api.get<{ releases: ReleaseSummary[] }>('releases'),
      ]);
      setPins(p.pins);
      setReleases(r.releases);
      setLoadError(null);
    } catch (e) {
      setLoadError(messageOf(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const pinOf = (projectId: string) => pins.find((p) => p.projectId === projectId) ?? null;
  const choose = async (project: { id: string; name: string }, release: string) => {
    setSaved('');
    const next = release === '' ? null : release;
    if (
      await action.run(async () =>
        setPins((await api.put<{ pins: Pin[] }>('releasePins', { projectId: project.id, release: next })).pins),
      )
    ) {
      setSaved(next ? `${project.name} is pinned to ${next}.` : `${project.name} reads its current text.`);
    }
  };

  return (
    <SettingsSection id="pinned-releases" title="Pinned releases">
      <p className="muted">
        A pinned project is read from its release by every API key that names no release: the command-line puller and CI
        builds get that release, byte for byte. The app always shows the current text.
      </p>
      <ErrorText error={loadError} />
      {data.projects.length === 0 ? (
        <p className="muted">No projects yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Pullers get</th>
              <th scope="col">Pinned by</th>
            </tr>
          </thead>
          <tbody>
            {data.projects.map((project) => {
              const pin = pinOf(project.id);
              const holding = releases.filter((r) => !r.filter.projects || r.filter.projects.includes(project.id));
              return (
                <tr key={project.id}>
                  <td>{project.name}</td>
                  <td>
                    {admin ? (
                      <select
                        aria-label={`Release pinned for ${project.name}`}
                        value={pin?.release ?? ''}
                        disabled={action.busy}
                        onChange={(event) => void choose(project, event.currentTarget.value)}
                      >
                        <option value="">Current text (not pinned)</option>
                        {holding.map((r) => (
                          <option key={r.name} value={r.name}>
                            {r.name}
                          </option>
                        ))}
                      </select>
                    ) : (
                      (pin?.release ?? 'Current text')
                    )}
                  </td>
                  <td>{pin ? `${pin.pinnedBy}, ${new Date(pin.pinnedAt).toLocaleString()}` : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ErrorText error={action.error} />
      <p role="status" className="muted">
        {saved}
      </p>
    </SettingsSection>
  );
}
