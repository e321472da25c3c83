import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getIfChanged } from './api';

interface Parts {
  projects: { id: string; name: string }[];
  folders: { id: string; name: string; parentId: string | null }[];
  variants: { id: string; name: string; description: string; localeCode: string | null }[];
  variables: { id: string; name: string; type: string; data: unknown }[];
  statuses: { id: string; name: string }[];
  users: { email: string; name: string; role: string }[];
}

/** One of the workspace's lists that every page may need. */
export type WorkspacePart = keyof Parts;

export interface WorkspaceData extends Parts {
  /** Whether the first read has answered (an empty list then means there is none). */
  loaded?: boolean;
  /** Why the last read failed, until a read succeeds. */
  error: string | null;
  /** Reads these lists again (all of them when none is named). */
  reload: (parts?: readonly WorkspacePart[]) => void;
}

const PATHS: Readonly<Record<WorkspacePart, string>> = {
  projects: 'projects',
  folders: 'componentFolders',
  variants: 'variants',
  variables: 'variables',
  statuses: 'statuses',
  users: 'users',
};
const ALL = Object.keys(PATHS) as WorkspacePart[];

/**
 * The lists a write of each kind of the change log (docs/events.md) may change: what the live
 * stream makes the app read again. A project's base (its developer mode) is in the projects list.
 */
export const PARTS_OF_KIND: Readonly<Record<string, readonly WorkspacePart[]>> = {
  project: ['projects'],
  base: ['projects'],
  folder: ['folders'],
  variant: ['variants'],
  variable: ['variables'],
  statuses: ['statuses'],
  user: ['users'],
};

/**
 * What every page needs of the workspace, read once and again on `reload`. Each list is read
 * conditionally (its ETag): one the server answers unchanged keeps its array, so nothing that
 * shows it renders again, and a reload names the lists a write may have changed.
 */
export function useWorkspaceData(): WorkspaceData {
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [parts, setParts] = useState<Parts>(
    () => Object.fromEntries(ALL.map((part) => [part, []])) as unknown as Parts,
  );
  // The read of each list last asked for: an answer of an earlier read arriving after a later one
  // was asked (a live reload that left before a write and lands after it) would show what that
  // write changed back.
  const asked = useRef(Object.fromEntries(ALL.map((part) => [part, 0])) as Record<WorkspacePart, number>);
  const etags = useRef<Partial<Record<WorkspacePart, string | null>>>({});
  const reload = useCallback((wanted: readonly WorkspacePart[] = ALL) => {
    const reads = wanted.map((part) => {
      const round = ++asked.current[part];
      return getIfChanged<Parts[typeof part]>(PATHS[part], etags.current[part] ?? null).then((read) => ({
        part,
        round,
        read,
      }));
    });
    Promise.all(reads)
      .then((answers) => {
        const changed: Partial<Record<WorkspacePart, unknown>> = {};
        for (const { part, round, read } of answers) {
          if (round !== asked.current[part] || read === null) continue;
          etags.current[part] = read.etag;
          changed[part] = read.data;
        }
        if (Object.keys(changed).length > 0) setParts((before) => ({ ...before, ...(changed as Partial<Parts>) }));
        setError(null);
        setLoaded(true);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  useEffect(() => reload(), [reload]);
  return useMemo(() => ({ ...parts, error, loaded, reload }), [parts, error, loaded, reload]);
}
