import type { Executor } from '../../db/schema.js';

/** The workspace's base language: the locale of exports of base text. */
export async function baseLanguage(db: Executor, workspaceId: number): Promise<string> {
  const row = await db
    .selectFrom('workspaces')
    .select('base_language')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return row?.base_language ?? 'en';
}
