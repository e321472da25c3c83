import { checkColumns, isInteger, isTime, oneOf, rowError } from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  refuseTakenKeys,
  type TableRestorer,
} from '../../db/backup-rows.js';
import { VARIABLE_TYPES, type VariableType, variableDataError, variableNameError } from './variable-data.js';

/** Variables as stored (`data` is the stored JSON text), for backup and restore. */
const COLUMNS = ['id', 'name', 'type', 'data', 'created_at'];

export const VARIABLES_DUMP: DumpSpec = { table: 'variables', columns: COLUMNS, keys: ['id'] };

/** A variable is checked as the API checks one: its name, its type, and `data` of that type's shape. */
export function variablesRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const i = first + index;
        checkColumns(
          { table: 'variables', index: i, row },
          { id: isInteger, type: oneOf(VARIABLE_TYPES), created_at: isTime },
        );
        checkNewId('variables', i, row, maps.variables);
        const nameProblem =
          typeof row.name === 'string' ? variableNameError(row.name, 'name') : 'name: must be a string';
        if (nameProblem)
          throw rowError({ table: 'variables', index: i, row }, 'name', nameProblem.replace(/^name:? ?/, ''));
        let data: unknown;
        try {
          data = JSON.parse(String(row.data));
        } catch {
          throw rowError({ table: 'variables', index: i, row }, 'data', 'must be JSON text');
        }
        const dataProblem =
          typeof row.data === 'string'
            ? variableDataError(row.type as VariableType, data, 'data')
            : 'data must be JSON text';
        if (dataProblem)
          throw rowError({ table: 'variables', index: i, row }, 'data', dataProblem.replace(/^data:? ?/, ''));
      });
      const mapped = rows.map((r) => ({ ...r, workspace_id: maps.workspaceId }));
      const unique = { fileTable: 'variables', table: 'variables', keys: ['name'], workspaceId: maps.workspaceId };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table: 'variables',
        columns: ['workspace_id', ...COLUMNS.slice(1)],
        rows: mapped,
        keyColumns: ['name'],
        ids: maps.variables,
      });
    },
  };
}
