import {
  allOf,
  checkColumns,
  checkReference,
  isBool,
  isDeveloperId,
  isInteger,
  isJson,
  isNonEmpty,
  isString,
  isTime,
  maxChars,
  nullable,
  oneOf,
} from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  mapId,
  refuseTakenKeys,
  type TableRestorer,
} from '../../db/backup-rows.js';
import { NOTE_MAX, STATUSES } from './suggestions.schemas.js';

/** Suggestions as stored, for backup and restore. */
const COLUMNS = [
  'id',
  'developer_id',
  'record_kind',
  'text_id',
  'record_developer_id',
  'project_id',
  'variant_id',
  'variant_developer_id',
  'author_id',
  'author_email',
  'note',
  'rich_text',
  'proposed_text',
  'proposed_plurals',
  'base_etag',
  'base_text',
  'base_rich_text',
  'base_plurals',
  'status',
  'created_at',
  'decided_at',
  'decided_by',
  'decision_note',
];

export const SUGGESTIONS_DUMP: DumpSpec = { table: 'suggestions', columns: COLUMNS, keys: ['id'] };

const optionalInteger = nullable(isInteger);
const plurals = nullable(
  isJson(
    'a JSON array of plural forms',
    (v) => Array.isArray(v) && v.every((p) => typeof p?.form === 'string' && typeof p?.text === 'string'),
  ),
);
const CHECKS = {
  id: isInteger,
  developer_id: isDeveloperId,
  record_kind: oneOf(['component', 'text_item']),
  text_id: optionalInteger,
  record_developer_id: isDeveloperId,
  project_id: optionalInteger,
  variant_id: optionalInteger,
  variant_developer_id: nullable(isDeveloperId),
  author_id: optionalInteger,
  author_email: isNonEmpty,
  note: nullable(allOf(isNonEmpty, maxChars(NOTE_MAX))),
  rich_text: isBool,
  proposed_text: nullable(isString),
  proposed_plurals: plurals,
  base_etag: isNonEmpty,
  base_text: nullable(isString),
  base_rich_text: nullable(isString),
  base_plurals: plurals,
  status: oneOf([...STATUSES]),
  created_at: isTime,
  decided_at: nullable(isTime),
  decided_by: nullable(isString),
  decision_note: nullable(allOf(isNonEmpty, maxChars(NOTE_MAX))),
};

/** The columns that refer to rows the file restored before (all optional: the row may be gone). */
const REFERENCES = [
  ['text_id', 'texts'],
  ['project_id', 'projects'],
  ['variant_id', 'variants'],
  ['author_id', 'users'],
] as const;

/**
 * Suggestions after the texts they are on. `base_etag` is kept as it was: a restored text has a
 * new row id, so its ETag differs and an open suggestion reads as changed since (`baseChanged`);
 * accepting it is then refused as stale, and `force` applies it (docs/suggestions.md).
 */
export function suggestionsRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        const at = { table: 'suggestions', index: first + i, row };
        checkColumns(at, CHECKS);
        checkNewId('suggestions', first + i, row, maps.suggestions);
        for (const [column, table] of REFERENCES) {
          checkReference(at, column, { name: table, ids: maps[table] }, true);
        }
      });
      const mapped = rows.map((r) => ({
        ...r,
        workspace_id: maps.workspaceId,
        text_id: mapId(maps.texts, r.text_id),
        project_id: mapId(maps.projects, r.project_id),
        variant_id: mapId(maps.variants, r.variant_id),
        author_id: mapId(maps.users, r.author_id),
      }));
      const unique = {
        fileTable: 'suggestions',
        table: 'suggestions',
        keys: ['developer_id'],
        workspaceId: maps.workspaceId,
      };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table: 'suggestions',
        columns: ['workspace_id', ...COLUMNS.slice(1)],
        rows: mapped,
        keyColumns: ['developer_id'],
        ids: maps.suggestions,
      });
    },
  };
}
