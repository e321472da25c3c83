import { checkColumns, checkReference, isInteger, isTime, oneOf } from '../../db/backup-check.js';
import { type DumpSpec, type IdMaps, insertRows, mapId, type TableRestorer } from '../../db/backup-rows.js';

/**
 * Follows as stored, for backup and restore: users' choices, kept with the workspace. The
 * notifications themselves are not backed up (docs/notifications.md#backups).
 */
const COLUMNS = ['id', 'user_id', 'record_kind', 'text_id', 'reason', 'created_at'];

export const FOLLOWS_DUMP: DumpSpec = { table: 'follows', columns: COLUMNS, keys: ['id'] };

const CHECKS = {
  id: isInteger,
  user_id: isInteger,
  record_kind: oneOf(['component', 'text_item']),
  text_id: isInteger,
  reason: oneOf(['created', 'assigned', 'explicit']),
  created_at: isTime,
};

const STORED = ['workspace_id', 'user_id', 'record_kind', 'text_id', 'reason', 'created_at'];

/** Follows after the users and texts they name. */
export function followsRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const at = { table: 'follows', index: first + index, row };
        checkColumns(at, CHECKS);
        checkReference(at, 'user_id', { name: 'users', ids: maps.users }, false);
        checkReference(at, 'text_id', { name: 'texts', ids: maps.texts }, false);
      });
      await insertRows(
        trx,
        'follows',
        STORED,
        rows.map((r) => ({
          ...r,
          workspace_id: maps.workspaceId,
          user_id: mapId(maps.users, r.user_id),
          text_id: mapId(maps.texts, r.text_id),
        })),
      );
    },
  };
}
