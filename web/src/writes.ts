import { request } from './api';

type WriteMethod = 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One write through the public API; answers its body and the workspace revision it made (the
 * `Copydesk-Revision` header; null when the server sent none), which "Undo" hands back.
 */
export async function write<T = unknown>(
  method: WriteMethod,
  path: string,
  body: unknown,
): Promise<{ data: T; revision: string | null }> {
  const { data, response } = await request<T>(method, path, body);
  return { data, revision: response.headers.get('copydesk-revision') };
}

/** Undoes one whole write: every record it changed goes back to how it was before it. */
export const undoRevision = (revision: string) => write('POST', 'history/restore', { revision });

export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
