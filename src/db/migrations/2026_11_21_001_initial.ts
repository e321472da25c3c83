// biome-ignore-all lint/plugin/no-spread-call: `...workspaceRef()` spreads a fixed 3-tuple (name, type, builder) into addColumn
import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * The whole schema the API needs. Booleans are integers 0/1 and JSON is text on both databases.
 * Never edit this file once it has landed: add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const workspaceRef = (name = 'workspace_id') =>
    [name, 'integer', (col: any) => col.notNull().references('workspaces.id').onDelete('cascade')] as const;

  await withIdColumn(db, db.schema.createTable('workspaces'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('base_language', 'text', (col) => col.notNull().defaultTo('en'))
    .addColumn('sup_sub_enabled', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('users'))
    .addColumn(...workspaceRef())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('users_workspace_email_unique', ['workspace_id', 'email'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn(...workspaceRef())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('prefix', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('statuses')
    .addColumn(...workspaceRef())
    .addColumn('status_key', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('statuses_pk', ['workspace_id', 'status_key'])
    .execute();

  await withIdColumn(db, db.schema.createTable('variants'))
    .addColumn(...workspaceRef())
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('locale_code', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('variants_developer_id_unique', ['workspace_id', 'developer_id'])
    .addUniqueConstraint('variants_name_unique', ['workspace_id', 'name'])
    .execute();

  await withIdColumn(db, db.schema.createTable('variables'))
    .addColumn(...workspaceRef())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('data', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('variables_name_unique', ['workspace_id', 'name'])
    .execute();

  await withIdColumn(db, db.schema.createTable('component_folders'))
    .addColumn(...workspaceRef())
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('parent_id', 'integer', (col) => col.references('component_folders.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('component_folders_developer_id_unique', ['workspace_id', 'developer_id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('projects'))
    .addColumn(...workspaceRef())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('base_id', 'integer', (col) => col.references('projects.id').onDelete('set null'))
    .addColumn('developer_mode', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('projects_developer_id_unique', ['workspace_id', 'developer_id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('blocks'))
    .addColumn(...workspaceRef())
    .addColumn('project_id', 'integer', (col) => col.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addUniqueConstraint('blocks_developer_id_unique', ['project_id', 'developer_id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('texts'))
    .addColumn(...workspaceRef())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text')
    .addColumn('folder_id', 'integer', (col) => col.references('component_folders.id').onDelete('set null'))
    .addColumn('project_id', 'integer', (col) => col.references('projects.id').onDelete('cascade'))
    .addColumn('block_id', 'integer', (col) => col.references('blocks.id').onDelete('set null'))
    .addColumn('base_text_item_id', 'integer', (col) => col.references('texts.id').onDelete('set null'))
    .addColumn('component_id', 'integer', (col) => col.references('texts.id').onDelete('set null'))
    .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('rich_text', 'text')
    .addColumn('plurals', 'text')
    .addColumn('notes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('tags', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('assignee_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('character_limit', 'integer')
    .addColumn('integrated', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('texts_developer_id_unique', ['workspace_id', 'kind', 'developer_id'])
    .execute();
  await db.schema.createIndex('texts_project_idx').on('texts').columns(['project_id', 'position']).execute();
  await db.schema.createIndex('texts_folder_idx').on('texts').column('folder_id').execute();
  await db.schema.createIndex('texts_component_idx').on('texts').column('component_id').execute();
  await db.schema.createIndex('texts_block_idx').on('texts').column('block_id').execute();
  await db.schema.createIndex('texts_base_item_idx').on('texts').column('base_text_item_id').execute();

  await db.schema
    .createTable('text_variants')
    .addColumn('text_id', 'integer', (col) => col.notNull().references('texts.id').onDelete('cascade'))
    .addColumn('variant_id', 'integer', (col) => col.notNull().references('variants.id').onDelete('cascade'))
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('rich_text', 'text')
    .addColumn('plurals', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('assignee_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('notes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('character_limit', 'integer')
    .addPrimaryKeyConstraint('text_variants_pk', ['text_id', 'variant_id'])
    .execute();
  await db.schema.createIndex('text_variants_variant_idx').on('text_variants').column('variant_id').execute();

  await db.schema
    .createTable('text_variables')
    .addColumn('text_id', 'integer', (col) => col.notNull().references('texts.id').onDelete('cascade'))
    .addColumn('variable_id', 'integer', (col) => col.notNull().references('variables.id').onDelete('restrict'))
    .addPrimaryKeyConstraint('text_variables_pk', ['text_id', 'variable_id'])
    .execute();
  await db.schema.createIndex('text_variables_variable_idx').on('text_variables').column('variable_id').execute();

  await withIdColumn(db, db.schema.createTable('styleguides'))
    .addColumn(...workspaceRef())
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('enabled_by_default', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('variant_id', 'integer', (col) => col.references('variants.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('styleguides_developer_id_unique', ['workspace_id', 'developer_id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('styleguide_sections'))
    .addColumn('styleguide_id', 'integer', (col) => col.notNull().references('styleguides.id').onDelete('cascade'))
    .addColumn('section_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addUniqueConstraint('styleguide_sections_unique', ['styleguide_id', 'section_id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('styleguide_rules'))
    .addColumn('styleguide_id', 'integer', (col) => col.notNull().references('styleguides.id').onDelete('cascade'))
    .addColumn('section_id', 'integer', (col) => col.notNull().references('styleguide_sections.id').onDelete('cascade'))
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('examples', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('check_kind', 'text')
    .addColumn('check_config', 'text')
    .addColumn('position', 'integer', (col) => col.notNull())
    .addUniqueConstraint('styleguide_rules_unique', ['styleguide_id', 'developer_id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('styleguide_terms'))
    .addColumn('styleguide_id', 'integer', (col) => col.notNull().references('styleguides.id').onDelete('cascade'))
    .addColumn('section_id', 'integer', (col) => col.notNull().references('styleguide_sections.id').onDelete('cascade'))
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('preferred', 'text', (col) => col.notNull())
    .addColumn('replaces', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('case_sensitive', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addUniqueConstraint('styleguide_terms_unique', ['styleguide_id', 'developer_id'])
    .execute();

  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'meta',
    'styleguide_terms',
    'styleguide_rules',
    'styleguide_sections',
    'styleguides',
    'text_variables',
    'text_variants',
    'texts',
    'blocks',
    'projects',
    'component_folders',
    'variables',
    'variants',
    'statuses',
    'api_keys',
    'users',
    'workspaces',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
