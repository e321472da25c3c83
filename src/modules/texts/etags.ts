import type { Executor } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { TextKind } from './texts.types.js';

/**
 * A text's ETag (`withEtag`, `If-Match`), not a response's (`responseEtag`, src/http/cache): its row id and the workspace revision of its last change. Every change of the
 * text (base fields, a variant value, its variables, a cascade) goes through
 * `texts.repository.updateTexts(Each)`, which stamps the revision, so a changed text never keeps its
 * ETag; a deleted and recreated text has a new row id.
 */
export function textEtag(id: number, revision: number): string {
  return `"${id.toString(36)}.${revision.toString(36)}"`;
}

/** The ETags an `If-Match` header lists, `*` for any, or null when there is no header. */
export type IfMatch = ReadonlySet<string> | '*' | null;

export function parseIfMatch(header: string | undefined): IfMatch {
  const value = header?.trim();
  if (!value) return null;
  if (value === '*') return '*';
  return new Set(value.split(',').map((tag) => tag.trim().replace(/^W\//, '')));
}

/**
 * With `If-Match`, every text a PATCH names must still have one of the listed ETags: otherwise
 * someone changed it since the client read it, and the whole request is a 412 (nothing written).
 * Runs inside the write's transaction, after the workspace's row lock, so no write slips between
 * this check and the update.
 */
export async function assertIfMatch(
  trx: Executor,
  workspaceId: number,
  kind: TextKind,
  developerIds: readonly string[],
  expected: IfMatch,
): Promise<void> {
  if (expected === null || expected === '*' || developerIds.length === 0) return;
  const rows = await trx
    .selectFrom('texts')
    .select(['id', 'developer_id', 'revision'])
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('developer_id', 'in', [...developerIds])
    .execute();
  const current = new Map(rows.map((r) => [r.developer_id, textEtag(r.id, Number(r.revision))]));
  developerIds.forEach((developerId, index) => {
    const etag = current.get(developerId);
    if (etag !== undefined && !expected.has(etag)) {
      throw new AppError(
        'precondition_failed',
        `updates[${index}]: ${developerId} changed since it was read (If-Match does not list its ETag ${etag}); read it again`,
      );
    }
  });
}
