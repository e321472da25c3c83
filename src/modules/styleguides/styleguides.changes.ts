import type { Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';
import type { Change, WritePath, WriteScope } from '../changes/index.js';
import { changesOf, type Fields } from '../changes/index.js';
import { loadGuides, type VariantNames } from './styleguides.load.js';
import { type GuideState, indexGuides, toStyleguideRecord } from './styleguides.records.js';

/**
 * How writes to style guides reach the change log. A guide is one record, rules and terms
 * included (GET lists them on it), so every write records at most one change per guide: its
 * fields as GET shows them, with each rule as `rules.<ruleId>` and each term as
 * `terms.<termId>` (the whole entry before and after). The change is the difference between the
 * guide read before the write and read back after it, in the same transaction, so entries that a
 * section change moved are recorded exactly as they ended up.
 */
export type Guides = Map<string, GuideState>;

export const guideIdentity = (row: { id: number; developer_id: string }) => ({
  kind: 'styleGuide' as const,
  ref: `styleGuide:${row.id}`,
  developerId: row.developer_id,
});

/** A guide's record flattened into change-log fields. */
export function guideFields(state: GuideState): Fields {
  const { id: _id, rules, terms, ...guide } = toStyleguideRecord(state);
  const fields: Record<string, unknown> = { ...guide };
  for (const rule of rules) fields[`rules.${rule.id}`] = rule;
  for (const term of terms) fields[`terms.${term.id}`] = term;
  return fields;
}

/** One change per guide that was created, changed or deleted between the two states. */
export function guideChanges(before: Guides, after: Guides): Change[] {
  const byRowId = (guides: Guides) => new Map([...guides.values()].map((state) => [state.row.id, state]));
  const was = byRowId(before);
  const is = byRowId(after);
  return changesOf(
    [...new Set([...was.keys(), ...is.keys()])].map((rowId) => {
      const old = was.get(rowId);
      const current = is.get(rowId);
      return {
        identity: guideIdentity((current ?? old)!.row),
        before: old ? guideFields(old) : null,
        after: current ? guideFields(current) : null,
      };
    }),
  );
}

/** A write of style guides: `work` validates against the guides as they are, then writes. */
export type GuideWork<T> = (trx: Transaction<Database>, guides: Guides) => Promise<T>;
export type GuideWriter = <T>(scope: WriteScope, work: GuideWork<T>, duplicate: string) => Promise<T>;

/**
 * Runs `work` on the write path with the workspace's guides loaded, and records what it changed.
 * A unique violation (only a concurrent write can get past the checks) is a 409 `duplicate`.
 */
export function createGuideWriter(writes: WritePath, variants: VariantNames): GuideWriter {
  return async (scope, work, duplicate) => {
    try {
      return await writes.write(scope, async (trx) => {
        const before = indexGuides(await loadGuides(trx, scope.workspaceId, variants));
        const result = await work(trx, before);
        const after = indexGuides(await loadGuides(trx, scope.workspaceId, variants));
        return { changes: guideChanges(before, after), result };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(duplicate);
      throw error;
    }
  };
}
