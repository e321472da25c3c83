import { badRequest } from '../http/errors.js';

/**
 * An opaque page cursor over rows listed newest first: the id of a page's last row, behind a
 * prefix that names the list, in base64url. Clients only hand it back; anything this server did
 * not return (another list's cursor included) is a 400 on `cursor`.
 */
export function idCursor(prefix: string) {
  return {
    encode: (id: number | string) => Buffer.from(`${prefix}${id}`).toString('base64url'),
    decode(cursor: string | undefined): number | undefined {
      if (cursor === undefined) return undefined;
      const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
      const id = text.startsWith(prefix) ? text.slice(prefix.length) : '';
      if (!/^[1-9]\d{0,15}$/.test(id)) throw badRequest('cursor: not a cursor this server returned');
      return Number(id);
    },
    /**
     * A page of `rows` read with `limit + 1`: the first `limit` rows, and the cursor of the next
     * page (null when the extra row did not come, so nothing follows).
     */
    page<Row extends { id: number | string }>(rows: readonly Row[], limit: number) {
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { page, nextCursor: rows.length > limit && last ? this.encode(last.id) : null };
    },
  };
}
