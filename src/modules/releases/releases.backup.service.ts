import { createHash } from 'node:crypto';
import { checkColumns, checkReference, isInteger, isString, isTime, oneOf, rowError } from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  insertRows,
  refuseTakenKeys,
  type TableRestorer,
} from '../../db/backup-rows.js';
import { checkReleaseName } from './releases.service.js';

/**
 * Releases as stored, for backup and restore (docs/releases.md#backups). Their documents are
 * restored byte for byte (each checked against its hash), so a restored release answers the same
 * bytes, under the same ETags, as the one backed up.
 */

const CONTENT_COLUMNS = ['hash', 'body'];
/** Documents by hash: no row id of theirs leaves the database, and the file's order is the hashes'. */
export const RELEASE_CONTENTS_DUMP: DumpSpec = { table: 'release_contents', columns: CONTENT_COLUMNS, keys: ['hash'] };

const RELEASE_COLUMNS = [
  'id',
  'name',
  'filter',
  'basis_hash',
  'content_hash',
  'components',
  'text_items',
  'created_by',
  'created_at',
];
export const RELEASES_DUMP: DumpSpec = { table: 'releases', columns: RELEASE_COLUMNS, keys: ['id'] };

const TEXT_COLUMNS = ['release_id', 'seq', 'kind', 'hash'];
export const RELEASE_TEXTS_DUMP: DumpSpec = {
  table: 'release_texts',
  columns: TEXT_COLUMNS,
  keys: ['release_id', 'seq'],
  via: { column: 'release_id', table: 'releases' },
};

const isHash = (value: unknown) =>
  typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? null : 'must be a hex SHA-256';

/** Each document is checked against its hash: a release's bytes are its identity. */
export function releaseContentsRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const at = { table: 'releaseContents', index: first + index, row };
        checkColumns(at, { hash: isHash, body: isString });
        if (createHash('sha256').update(String(row.body)).digest('hex') !== row.hash) {
          throw rowError(at, 'body', 'does not have the SHA-256 in hash');
        }
      });
      await insertRows(
        trx,
        'release_contents',
        ['workspace_id', ...CONTENT_COLUMNS],
        rows.map((r) => ({ ...r, workspace_id: maps.workspaceId })),
      );
    },
  };
}

export function releasesRestorer(maps: IdMaps, releases: Map<number, number>): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const at = { table: 'releases', index: first + index, row };
        checkColumns(at, {
          id: isInteger,
          name: isString,
          filter: isString,
          basis_hash: isHash,
          content_hash: isHash,
          components: isInteger,
          text_items: isInteger,
          created_by: isString,
          created_at: isTime,
        });
        checkNewId('releases', first + index, row, releases);
        try {
          checkReleaseName(String(row.name));
        } catch (error) {
          throw rowError(at, 'name', (error as Error).message.replace(/^name: /, ''));
        }
      });
      const mapped = rows.map((r) => ({ ...r, workspace_id: maps.workspaceId }));
      const unique = { fileTable: 'releases', table: 'releases', keys: ['name'], workspaceId: maps.workspaceId };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table: 'releases',
        columns: ['workspace_id', ...RELEASE_COLUMNS.slice(1)],
        rows: mapped,
        keyColumns: ['name'],
        ids: releases,
      });
    },
  };
}

export function releaseTextsRestorer(releases: Map<number, number>): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const at = { table: 'releaseTexts', index: first + index, row };
        checkColumns(at, { seq: isInteger, kind: oneOf(['component', 'text_item']), hash: isHash });
        checkReference(at, 'release_id', { name: 'releases', ids: releases }, false);
      });
      await insertRows(
        trx,
        'release_texts',
        TEXT_COLUMNS,
        rows.map((r) => ({ ...r, release_id: releases.get(Number(r.release_id)) })),
      );
    },
  };
}

const PIN_COLUMNS = ['project_id', 'release_id', 'pinned_by', 'pinned_at'];
/** Pins (docs/releases.md#pins): by project, each naming its project and release by file id. */
export const RELEASE_PINS_DUMP: DumpSpec = { table: 'release_pins', columns: PIN_COLUMNS, keys: ['project_id'] };

export function releasePinsRestorer(maps: IdMaps, releases: Map<number, number>): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const at = { table: 'releasePins', index: first + index, row };
        checkColumns(at, { pinned_by: isString, pinned_at: isTime });
        checkReference(at, 'project_id', { name: 'projects', ids: maps.projects }, false);
        checkReference(at, 'release_id', { name: 'releases', ids: releases }, false);
      });
      await insertRows(
        trx,
        'release_pins',
        ['workspace_id', ...PIN_COLUMNS],
        rows.map((r) => ({
          ...r,
          workspace_id: maps.workspaceId,
          project_id: maps.projects.get(Number(r.project_id)),
          release_id: releases.get(Number(r.release_id)),
        })),
      );
    },
  };
}
