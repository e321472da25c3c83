import { expect } from 'vitest';
import type { Workspace } from '../../helpers/app.js';

/** A change as GET /v2/history returns it. */
export interface Change {
  id: string;
  actor: string;
  keyId: string | null;
  revision: string | null;
  kind: string;
  developerId: string;
  variantId: string | null;
  action: string;
  fields: Record<string, { before: unknown; after: unknown }>;
}

/** The workspace's changes, newest first, for a query such as `?kind=block`. */
export async function history(ws: Workspace, query = ''): Promise<Change[]> {
  const res = await ws.api.get(`history${query}`);
  expect(res.status).toBe(200);
  return res.body.changes;
}

/** The changes that `write` records (newest first), after checking that it succeeds. */
export async function changesOf(ws: Workspace, write: () => Promise<{ status: number }>): Promise<Change[]> {
  const last = Number((await history(ws, '?limit=1'))[0]?.id ?? 0);
  expect((await write()).status).toBeLessThan(300);
  return (await history(ws)).filter((c) => Number(c.id) > last);
}
