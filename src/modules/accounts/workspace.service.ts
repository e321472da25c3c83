import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import { canonicalLocale } from '../../shared/locale.js';
import type { FieldChanges, WritePath, WriteScope } from '../changes/index.js';
import * as repo from './accounts.repository.js';

/** The workspace's own settings, as GET and PATCH /v2/workspace show them. */
export interface WorkspaceSettings {
  name: string;
  /** BCP 47 tag: the locale of exports of base text. */
  baseLanguage: string;
  /** Whether the deprecated v0 and v1 APIs may read and write the component library. */
  libraryDeveloperMode: boolean;
}

export type SettingsUpdate = Partial<WorkspaceSettings>;

const toSettings = (row: repo.SettingsRow): WorkspaceSettings => ({
  name: row.name,
  baseLanguage: row.base_language,
  libraryDeveloperMode: row.library_developer_mode === 1,
});

async function readSettings(executor: Executor, workspaceId: number): Promise<WorkspaceSettings> {
  const row = await repo.findSettings(executor, workspaceId);
  if (!row) throw notFound(`Workspace ${workspaceId} not found`);
  return toSettings(row);
}

/** The update checked and in stored form, with what it changes (nothing when it repeats the settings). */
function planUpdate(current: WorkspaceSettings, update: SettingsUpdate) {
  const next: WorkspaceSettings = { ...current };
  if (update.name !== undefined) {
    next.name = update.name.trim();
    if (!next.name) throw badRequest('name: must not be empty');
  }
  if (update.baseLanguage !== undefined) next.baseLanguage = canonicalLocale(update.baseLanguage, 'baseLanguage');
  if (update.libraryDeveloperMode !== undefined) next.libraryDeveloperMode = update.libraryDeveloperMode;
  const fields: FieldChanges = {};
  for (const key of ['name', 'baseLanguage', 'libraryDeveloperMode'] as const) {
    if (next[key] !== current[key]) fields[key] = { before: current[key], after: next[key] };
  }
  return { next, fields };
}

export function createWorkspaceService(deps: { db: Kysely<Database>; writes: WritePath }) {
  const { db, writes } = deps;

  return {
    get: (workspaceId: number) => readSettings(db, workspaceId),

    /**
     * Changes the settings sent. A PATCH that changes something is a write like any other: it
     * advances the workspace's revision (so cached reads and exports are recomputed) and is
     * recorded in the change log. One that changes nothing writes nothing.
     */
    async update(scope: WriteScope, update: SettingsUpdate): Promise<WorkspaceSettings> {
      const { next, fields } = planUpdate(await readSettings(db, scope.workspaceId), update);
      if (Object.keys(fields).length === 0) return next;
      return writes.write(scope, async (trx) => {
        // Planned again inside the transaction, against the settings as they are now.
        const planned = planUpdate(await readSettings(trx, scope.workspaceId), update);
        const change = {
          kind: 'workspace',
          ref: `workspace:${scope.workspaceId}`,
          developerId: String(scope.workspaceId),
          variantId: null,
          action: 'updated',
          fields: planned.fields,
        } as const;
        return {
          changes: Object.keys(planned.fields).length > 0 ? [change] : [],
          apply: (t) =>
            repo.updateSettings(t, scope.workspaceId, {
              name: planned.next.name,
              base_language: planned.next.baseLanguage,
              library_developer_mode: planned.next.libraryDeveloperMode ? 1 : 0,
            }),
          result: planned.next,
        };
      });
    },

    /** For the v0 and v1 APIs: may they reach the component library? */
    async libraryReachable(workspaceId: number): Promise<boolean> {
      return (await readSettings(db, workspaceId)).libraryDeveloperMode;
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
