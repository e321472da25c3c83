import type { Executor } from '../../db/schema.js';

/** Every workspace starts with the built-in guide `default`: one rules and one wordlist section. */
export async function insertBuiltinStyleguide(db: Executor, workspaceId: number, createdAt: string): Promise<void> {
  const guide = await db
    .insertInto('styleguides')
    .values({
      workspace_id: workspaceId,
      developer_id: 'default',
      name: 'Default style guide',
      description: 'The built-in style guide of the workspace',
      enabled_by_default: 1,
      variant_id: null,
      created_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('styleguide_sections')
    .values([
      { styleguide_id: guide.id, section_id: 'rules', kind: 'rules', name: 'Rules', position: 0 },
      { styleguide_id: guide.id, section_id: 'wordlist', kind: 'wordlist', name: 'Wordlist', position: 1 },
    ])
    .execute();
}
