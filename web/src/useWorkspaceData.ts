import { useEffect, useRef, useState } from 'react';
import { api } from './api';

export interface WorkspaceData {
  projects: { id: string; name: string }[];
  folders: { id: string; name: string; parentId: string | null }[];
  variants: { id: string; name: string; description: string; localeCode: string | null }[];
  variables: { id: string; name: string; type: string; data: unknown }[];
  statuses: { id: string; name: string }[];
  users: { email: string; name: string; role: string }[];
  /** Whether the first read has answered (an empty list then means there is none). */
  loaded?: boolean;
  /** Why the last read failed, until a read succeeds. */
  error: string | null;
  reload: () => void;
}

/** What every page needs of the workspace, read once and again on `reload`. */
export function useWorkspaceData(): WorkspaceData {
  const [round, setRound] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [data, setData] = useState<Omit<WorkspaceData, 'reload' | 'error' | 'loaded'>>({
    projects: [],
    folders: [],
    variants: [],
    variables: [],
    statuses: [],
    users: [],
  });
  // The round last asked for: an answer of an earlier round arriving after a later one was asked
  // (a live reload that left before a write and lands after it) would show what that write changed back.
  const asked = useRef(0);
  useEffect(() => {
    asked.current = round;
    Promise.all([
      api.get<WorkspaceData['projects']>('projects'),
      api.get<WorkspaceData['folders']>('componentFolders'),
      api.get<WorkspaceData['variants']>('variants'),
      api.get<WorkspaceData['variables']>('variables'),
      api.get<WorkspaceData['statuses']>('statuses'),
      api.get<WorkspaceData['users']>('users'),
    ])
      .then(([projects, folders, variants, variables, statuses, users]) => {
        if (round !== asked.current) return;
        setData({ projects, folders, variants, variables, statuses, users });
        setError(null);
        setLoaded(true);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [round]);
  return { ...data, error, loaded, reload: () => setRound((r) => r + 1) };
}
