import { badRequest, notFound } from '../../http/errors.js';
import { maxOf } from '../../shared/arrays.js';
import { slugify, uniqueDeveloperId } from '../../shared/developer-id.js';
import type { WriteScope } from '../changes/index.js';
import * as entries from './entries.repository.js';
import {
  type EntryNoun,
  entryExists,
  entryNotFound,
  guideReference,
  onceEach,
  sectionReference,
  validCheck,
} from './entries.rules.js';
import type { EntryRef, Located, NewRuleInput, NewTermInput, RuleUpdate, TermUpdate } from './entries.types.js';
import type { Guides, GuideWork, GuideWriter } from './styleguides.changes.js';
import { type GuideState, storedCheck } from './styleguides.records.js';

/**
 * Rules and wordlist terms: batch create, update and delete in the style of the rest of the API.
 * Their developer IDs are unique within their guide, so every element names its `styleguideId`.
 * The change log records them as changes of their guide (see styleguides.changes.ts).
 */

const entriesOf = (state: GuideState, noun: EntryNoun) => (noun === 'Rule' ? state.rules : state.terms);

function checkTerm(input: { preferred?: string; replaces?: string[] }, field: string): void {
  if (input.preferred !== undefined && input.preferred.trim() === '')
    throw badRequest(`${field}.preferred must not be blank`);
  input.replaces?.forEach((term, k) => {
    if (term.trim() === '') throw badRequest(`${field}.replaces[${k}] must not be blank`);
  });
}

export function createEntriesService(deps: { write: GuideWriter }) {
  const write = <T>(scope: WriteScope, work: GuideWork<T>) =>
    deps.write(scope, work, 'Entry already exists in style guide');

  /** Resolves each create element's guide and section, and hands out developer IDs and positions. */
  function planNewEntries<T extends Located & { sectionId: string }>(
    guides: Guides,
    inputs: readonly T[],
    entry: { noun: EntryNoun; field: string; slugOf: (input: T) => string },
  ) {
    const { noun, field, slugOf } = entry;
    const located = inputs.map((input, i) => {
      const state = guideReference(guides, input.styleguideId, `${field}[${i}].styleguideId`);
      const section = sectionReference(state, input.sectionId, noun, `${field}[${i}].sectionId`);
      if (input.developerId !== undefined && entriesOf(state, noun).some((e) => e.developer_id === input.developerId)) {
        throw entryExists(noun, input.developerId, input.styleguideId);
      }
      return { input, state, section };
    });
    const taken = new Map<number, Set<string>>();
    const positions = new Map<number, number>();
    for (const { state } of located) {
      const rows = entriesOf(state, noun);
      taken.set(state.row.id, new Set(rows.map((r) => r.developer_id)));
      positions.set(
        state.row.id,
        maxOf(
          rows.map((r) => r.position),
          -1,
        ) + 1,
      );
    }
    for (const { input, state } of located) if (input.developerId) taken.get(state.row.id)?.add(input.developerId);
    return located.map(({ input, state, section }) => {
      const position = positions.get(state.row.id) as number;
      positions.set(state.row.id, position + 1);
      const developerId = input.developerId ?? uniqueDeveloperId(slugOf(input), taken.get(state.row.id) as Set<string>);
      return { input, developerId, position, styleguide_id: state.row.id, section_id: section.id };
    });
  }

  /** The rows a PATCH or DELETE targets: an unknown guide or entry is a 404. */
  function targets(guides: Guides, refs: readonly EntryRef[], noun: EntryNoun, field: string) {
    onceEach(refs, field, noun);
    return refs.map((ref) => {
      const state = guides.get(ref.styleguideId);
      if (!state) throw notFound(`Style guide with developer ID ${ref.styleguideId} not found`);
      const row = entriesOf(state, noun).find((e) => e.developer_id === ref.developerId);
      if (!row) throw entryNotFound(noun, ref.developerId, ref.styleguideId);
      return { state, row };
    });
  }

  const sectionChange = (state: GuideState, sectionId: string | undefined, noun: EntryNoun, field: string) =>
    sectionId === undefined ? {} : { section_id: sectionReference(state, sectionId, noun, field).id };

  /**
   * A PATCH of rules or terms: every element names an entry of its guide and may move it to another
   * section; all are resolved and checked before the first is stored.
   */
  function updateEntries<U extends EntryRef & { sectionId?: string }, C extends object>(
    scope: WriteScope,
    updates: readonly U[],
    entry: {
      noun: EntryNoun;
      columnsOf: (update: U, index: number) => C;
      store: (trx: Parameters<GuideWork<void>>[0], id: number, columns: C) => Promise<void>;
    },
  ): Promise<void> {
    const { noun, columnsOf, store } = entry;
    return write(scope, async (trx, guides) => {
      const found = targets(guides, updates, noun, 'updates');
      const changes = found.map(({ state }, i) => {
        const update = updates[i] as U;
        return { ...sectionChange(state, update.sectionId, noun, `updates[${i}].sectionId`), ...columnsOf(update, i) };
      });
      for (const [i, { row }] of found.entries()) await store(trx, row.id, changes[i] as C);
    });
  }

  /** A DELETE of rules or terms, all or none. */
  const removeEntries = (scope: WriteScope, refs: readonly EntryRef[], noun: EntryNoun) =>
    write(scope, async (trx, guides) => {
      const found = targets(guides, refs, noun, noun === 'Rule' ? 'rules' : 'terms');
      const table = noun === 'Rule' ? 'styleguide_rules' : 'styleguide_terms';
      await entries.deleteEntries(
        trx,
        table,
        found.map((f) => f.row.id),
      );
    });

  return {
    rules: {
      async create(scope: WriteScope, inputs: readonly NewRuleInput[]): Promise<string[]> {
        onceEach(inputs, 'rules', 'Rule');
        const checks = inputs.map((input, i) => validCheck(input.check ?? null, `rules[${i}].check`));
        return write(scope, async (trx, guides) => {
          const planned = planNewEntries(guides, inputs, {
            noun: 'Rule',
            field: 'rules',
            slugOf: (input) => slugify(input.name),
          });
          await entries.insertRules(
            trx,
            planned.map(({ input, developerId, position, styleguide_id, section_id }, i) => ({
              styleguide_id,
              section_id,
              developer_id: developerId,
              name: input.name,
              description: input.description ?? '',
              examples: JSON.stringify(input.examples ?? []),
              ...storedCheck(checks[i] ?? null),
              position,
            })),
          );
          return planned.map((p) => p.developerId);
        });
      },

      async update(scope: WriteScope, updates: readonly RuleUpdate[]): Promise<void> {
        const checks = updates.map((u, i) =>
          u.check === undefined ? undefined : validCheck(u.check, `updates[${i}].check`),
        );
        await updateEntries(scope, updates, {
          noun: 'Rule',
          columnsOf: (u, i) => ({
            ...(u.name === undefined ? {} : { name: u.name }),
            ...(u.description === undefined ? {} : { description: u.description }),
            ...(u.examples === undefined ? {} : { examples: JSON.stringify(u.examples) }),
            ...(checks[i] === undefined ? {} : storedCheck(checks[i] ?? null)),
          }),
          store: entries.updateRule,
        });
      },

      remove: (scope: WriteScope, refs: readonly EntryRef[]) => removeEntries(scope, refs, 'Rule'),
    },

    terms: {
      async create(scope: WriteScope, inputs: readonly NewTermInput[]): Promise<string[]> {
        onceEach(inputs, 'terms', 'Term');
        for (const [i, input] of inputs.entries()) checkTerm(input, `terms[${i}]`);
        return write(scope, async (trx, guides) => {
          const planned = planNewEntries(guides, inputs, {
            noun: 'Term',
            field: 'terms',
            slugOf: (input) => slugify(input.preferred),
          });
          await entries.insertTerms(
            trx,
            planned.map(({ input, developerId, position, styleguide_id, section_id }) => ({
              styleguide_id,
              section_id,
              developer_id: developerId,
              preferred: input.preferred,
              replaces: JSON.stringify(input.replaces ?? []),
              case_sensitive: input.caseSensitive ? 1 : 0,
              note: input.note ?? '',
              position,
            })),
          );
          return planned.map((p) => p.developerId);
        });
      },

      async update(scope: WriteScope, updates: readonly TermUpdate[]): Promise<void> {
        for (const [i, u] of updates.entries()) checkTerm(u, `updates[${i}]`);
        await updateEntries(scope, updates, {
          noun: 'Term',
          columnsOf: (u) => ({
            ...(u.preferred === undefined ? {} : { preferred: u.preferred }),
            ...(u.replaces === undefined ? {} : { replaces: JSON.stringify(u.replaces) }),
            ...(u.caseSensitive === undefined ? {} : { case_sensitive: u.caseSensitive ? 1 : 0 }),
            ...(u.note === undefined ? {} : { note: u.note }),
          }),
          store: entries.updateTerm,
        });
      },

      remove: (scope: WriteScope, refs: readonly EntryRef[]) => removeEntries(scope, refs, 'Term'),
    },
  };
}
