import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as initial from './migrations/2026_11_21_001_initial.js';
import * as changeLog from './migrations/2026_11_23_100_change_log.js';
import * as libraryDeveloperMode from './migrations/2026_11_23_200_library_developer_mode.js';
import * as webhooks from './migrations/2026_11_25_100_webhooks.js';
import * as changeNotifications from './migrations/2026_11_25_300_change_notifications.js';
import * as people from './migrations/2026_11_25_701_people.js';
import * as textRevision from './migrations/2026_11_25_702_text_revision.js';
import * as textSearch from './migrations/2026_11_25_703_text_search.js';
import * as compactChangeFields from './migrations/2026_11_25_800_compact_change_fields.js';
import * as searchQueue from './migrations/2026_11_26_100_search_queue.js';
import * as exportFragments from './migrations/2026_11_26_200_export_fragments.js';
import * as textSearchPlan from './migrations/2026_11_26_700_text_search_plan.js';
import * as exportFragmentRuns from './migrations/2026_11_27_200_export_fragment_runs.js';
import * as exportRunDeflate from './migrations/2026_11_28_100_export_run_deflate.js';
import * as exportRunStamps from './migrations/2026_11_28_101_export_run_stamps.js';
import * as searchQueueByRevision from './migrations/2026_11_28_102_search_queue_by_revision.js';
import * as searchQueueNewTexts from './migrations/2026_11_28_103_search_queue_new_texts.js';
import * as changeLogIndexes from './migrations/2026_11_28_300_change_log_indexes.js';
import * as changesBrinSummaries from './migrations/2026_11_28_301_changes_brin_summaries.js';
import * as textVariantsByVariant from './migrations/2026_11_28_400_text_variants_by_variant.js';
import * as changeRevision from './migrations/2026_11_29_200_change_revision.js';
import * as translationState from './migrations/2026_11_29_300_translation_state.js';
import * as dropExportFragments from './migrations/2026_11_30_100_drop_export_fragments.js';
import * as textsProjectDeveloperId from './migrations/2026_11_30_500_texts_project_developer_id.js';
import * as comments from './migrations/2026_12_01_300_comments.js';
import * as suggestions from './migrations/2026_12_01_400_suggestions.js';
import * as emailOutbox from './migrations/2026_12_01_500_email_outbox.js';
import * as notifications from './migrations/2026_12_02_500_notifications.js';
import * as presence from './migrations/2026_12_03_100_presence.js';
import * as releases from './migrations/2026_12_03_100_releases.js';
import * as translationMemory from './migrations/2026_12_03_100_translation_memory.js';
import * as machineTranslation from './migrations/2026_12_03_600_machine_translation.js';
import * as translationMemoryBands from './migrations/2026_12_04_100_translation_memory_bands.js';
import * as releasePins from './migrations/2026_12_05_100_release_pins.js';
import type { Database } from './schema.js';

/** Migrations are listed here rather than read from disk, so that they ship inside the build. */
const migrations: Record<string, Migration> = {
  '2026_11_21_001_initial': initial,
  '2026_11_23_100_change_log': changeLog,
  '2026_11_23_200_library_developer_mode': libraryDeveloperMode,
  '2026_11_25_100_webhooks': webhooks,
  '2026_11_25_300_change_notifications': changeNotifications,
  '2026_11_25_701_people': people,
  '2026_11_25_702_text_revision': textRevision,
  '2026_11_25_703_text_search': textSearch,
  '2026_11_25_800_compact_change_fields': compactChangeFields,
  '2026_11_26_100_search_queue': searchQueue,
  '2026_11_26_200_export_fragments': exportFragments,
  '2026_11_26_700_text_search_plan': textSearchPlan,
  '2026_11_27_200_export_fragment_runs': exportFragmentRuns,
  '2026_11_28_100_export_run_deflate': exportRunDeflate,
  '2026_11_28_101_export_run_stamps': exportRunStamps,
  '2026_11_28_102_search_queue_by_revision': searchQueueByRevision,
  '2026_11_28_103_search_queue_new_texts': searchQueueNewTexts,
  '2026_11_28_300_change_log_indexes': changeLogIndexes,
  '2026_11_28_301_changes_brin_summaries': changesBrinSummaries,
  '2026_11_28_400_text_variants_by_variant': textVariantsByVariant,
  '2026_11_29_200_change_revision': changeRevision,
  '2026_11_29_300_translation_state': translationState,
  '2026_11_30_100_drop_export_fragments': dropExportFragments,
  '2026_11_30_500_texts_project_developer_id': textsProjectDeveloperId,
  '2026_12_01_300_comments': comments,
  '2026_12_01_400_suggestions': suggestions,
  '2026_12_01_500_email_outbox': emailOutbox,
  '2026_12_02_500_notifications': notifications,
  '2026_12_03_100_presence': presence,
  '2026_12_03_100_releases': releases,
  '2026_12_03_100_translation_memory': translationMemory,
  '2026_12_03_600_machine_translation': machineTranslation,
  '2026_12_04_100_translation_memory_bands': translationMemoryBands,
  '2026_12_05_100_release_pins': releasePins,
};

/** Every migration, in the order they apply. */
export const MIGRATION_NAMES = Object.keys(migrations).sort();

const provider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/** Brings the schema up to date. Safe to run from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // Migrations are developed side by side and named in slots, so one may land after a later-named
  // one has run somewhere; each stands on its own, so it is applied rather than refused.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    throw error instanceof Error ? error : new Error(String(error));
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
