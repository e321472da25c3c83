import { type BackupRow, type IdMaps, insertRows, mapId, selectRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/**
 * Style guides with their sections, rules and terms, as stored. A restore replaces the built-in
 * guide the workspace was created with by the backup's own.
 */
const GUIDES = ['id', 'developer_id', 'name', 'description', 'enabled_by_default', 'variant_id', 'created_at'];
const SECTIONS = ['id', 'styleguide_id', 'section_id', 'kind', 'name', 'position'];
const RULES = [
  'id',
  'styleguide_id',
  'section_id',
  'developer_id',
  'name',
  'description',
  'examples',
  'check_kind',
  'check_config',
  'position',
];
const TERMS = [
  'id',
  'styleguide_id',
  'section_id',
  'developer_id',
  'preferred',
  'replaces',
  'case_sensitive',
  'note',
  'position',
];

export interface StyleguidesBackup {
  styleguides: BackupRow[];
  styleguideSections: BackupRow[];
  styleguideRules: BackupRow[];
  styleguideTerms: BackupRow[];
}

export async function dumpStyleguides(executor: Executor, workspaceId: number): Promise<StyleguidesBackup> {
  const styleguides = await selectRows(executor, 'styleguides', GUIDES, { column: 'workspace_id', in: [workspaceId] });
  const of = { column: 'styleguide_id', in: styleguides.map((g) => Number(g.id)) };
  return {
    styleguides,
    styleguideSections: await selectRows(executor, 'styleguide_sections', SECTIONS, of),
    styleguideRules: await selectRows(executor, 'styleguide_rules', RULES, of),
    styleguideTerms: await selectRows(executor, 'styleguide_terms', TERMS, of),
  };
}

export async function restoreStyleguides(trx: Executor, maps: IdMaps, backup: StyleguidesBackup): Promise<void> {
  // Sections, rules and terms of the replaced guides go with them (foreign keys on delete cascade).
  await trx.deleteFrom('styleguides').where('workspace_id', '=', maps.workspaceId).execute();
  maps.styleguides = await insertRows(
    trx,
    'styleguides',
    ['workspace_id', ...GUIDES.slice(1)],
    backup.styleguides.map((g) => ({
      ...g,
      workspace_id: maps.workspaceId,
      variant_id: mapId(maps.variants, g.variant_id),
    })),
    { keyColumns: ['developer_id'], scope: { column: 'workspace_id', in: [maps.workspaceId] } },
  );
  const guides = { column: 'styleguide_id', in: [...maps.styleguides.values()] };
  const inGuide = (row: BackupRow) => ({ ...row, styleguide_id: mapId(maps.styleguides, row.styleguide_id) });
  maps.sections = await insertRows(
    trx,
    'styleguide_sections',
    SECTIONS.slice(1),
    backup.styleguideSections.map(inGuide),
    {
      keyColumns: ['styleguide_id', 'section_id'],
      scope: guides,
    },
  );
  const entry = (row: BackupRow) => ({ ...inGuide(row), section_id: mapId(maps.sections, row.section_id) });
  await insertRows(trx, 'styleguide_rules', RULES.slice(1), backup.styleguideRules.map(entry));
  await insertRows(trx, 'styleguide_terms', TERMS.slice(1), backup.styleguideTerms.map(entry));
}
