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
  isStringArray,
  isTime,
  maxChars,
  nullable,
  oneOf,
  rowError,
} from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  Links,
  mapId,
  refuseTakenKeys,
  type TableRestorer,
  updateLinks,
} from '../../db/backup-rows.js';
import { setMentions } from './comments.repository.js';
import { BODY_MAX, QUOTE_MAX } from './comments.schemas.js';

/**
 * Comments as stored, for backup and restore. Their mentions are not a table of the file: the
 * `mentions` column holds them, and a restore indexes them again (`comment_mentions`).
 */
const COLUMNS = [
  'id',
  'developer_id',
  'thread_id',
  'record_kind',
  'text_id',
  'record_developer_id',
  'record_deleted',
  'project_id',
  'variant_id',
  'variant_developer_id',
  'author_id',
  'author_email',
  'body',
  'mentions',
  'range_start',
  'range_end',
  'range_quote',
  'created_at',
  'edited_at',
  'resolved_at',
  'resolved_by',
];

export const COMMENTS_DUMP: DumpSpec = { table: 'comments', columns: COLUMNS, keys: ['id'] };

const optionalInteger = nullable(isInteger);
const CHECKS = {
  id: isInteger,
  developer_id: isDeveloperId,
  thread_id: optionalInteger,
  record_kind: oneOf(['component', 'text_item']),
  text_id: optionalInteger,
  record_developer_id: isDeveloperId,
  record_deleted: isBool,
  project_id: optionalInteger,
  variant_id: optionalInteger,
  variant_developer_id: nullable(isDeveloperId),
  author_id: optionalInteger,
  author_email: isNonEmpty,
  body: allOf(isNonEmpty, maxChars(BODY_MAX)),
  mentions: isJson('a JSON array of emails', isStringArray),
  range_start: optionalInteger,
  range_end: optionalInteger,
  range_quote: nullable(maxChars(QUOTE_MAX)),
  created_at: isTime,
  edited_at: nullable(isTime),
  resolved_at: nullable(isTime),
  resolved_by: nullable(isString),
};

/** The columns that refer to rows the file restored before (all optional: the row may be gone). */
const REFERENCES = [
  ['text_id', 'texts'],
  ['project_id', 'projects'],
  ['variant_id', 'variants'],
  ['author_id', 'users'],
] as const;

/** Comments after the texts they are on; a reply's thread is set once every comment has its new id. */
export function commentsRestorer(maps: IdMaps): TableRestorer {
  const threads = new Links();
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        const at = { table: 'comments', index: first + i, row };
        checkColumns(at, CHECKS);
        checkNewId('comments', first + i, row, maps.comments);
        for (const [column, table] of REFERENCES) {
          checkReference(at, column, { name: table, ids: maps[table] }, true);
        }
        if (row.thread_id === row.id) throw rowError(at, 'thread_id', 'a comment cannot be its own thread');
        threads.add(first + i, row.id, row.thread_id);
      });
      const mapped = rows.map((r) => ({
        ...r,
        workspace_id: maps.workspaceId,
        thread_id: null,
        text_id: mapId(maps.texts, r.text_id),
        project_id: mapId(maps.projects, r.project_id),
        variant_id: mapId(maps.variants, r.variant_id),
        author_id: mapId(maps.users, r.author_id),
      }));
      const unique = {
        fileTable: 'comments',
        table: 'comments',
        keys: ['developer_id'],
        workspaceId: maps.workspaceId,
      };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table: 'comments',
        columns: ['workspace_id', ...COLUMNS.slice(1)],
        rows: mapped,
        keyColumns: ['developer_id'],
        ids: maps.comments,
      });
      await setMentions(
        trx,
        maps.workspaceId,
        rows.map((r) => ({
          commentId: maps.comments.get(Number(r.id)) as number,
          emails: [...new Set((JSON.parse(String(r.mentions)) as string[]).map((e) => e.toLowerCase()))],
        })),
      );
    },
    async finish(trx) {
      const broken = await updateLinks(trx, {
        table: 'comments',
        column: 'thread_id',
        links: threads,
        ids: maps.comments,
      });
      if (broken >= 0) {
        throw rowError(
          { table: 'comments', index: threads.indexes[broken] as number, row: { id: threads.rows[broken] } },
          'thread_id',
          `refers to comments ${threads.targets[broken]}, which the file does not hold`,
        );
      }
    },
  };
}
