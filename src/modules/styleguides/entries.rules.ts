import { badRequest, conflict, notFound } from '../../http/errors.js';
import { ALLOWED_FLAGS, regexProblem } from './lint/regex-guard.js';
import type { RuleCheck } from './lint/types.js';
import type { GuideState } from './styleguides.records.js';
import type { SectionRow } from './styleguides.repository.js';
import type { SectionKind } from './styleguides.sections.js';

/** Checks shared by the rule and term writes (pure): references, uniqueness and rule checks. */

export type EntryNoun = 'Rule' | 'Term';

const kindOf: Record<EntryNoun, SectionKind> = { Rule: 'rules', Term: 'wordlist' };

/** A guide named inside a create body: a bad reference is a 400. */
export function guideReference(guides: ReadonlyMap<string, GuideState>, styleguideId: string, field: string) {
  const state = guides.get(styleguideId);
  if (!state) throw badRequest(`${field}: Style guide with developer ID ${styleguideId} not found`);
  return state;
}

/** The section an entry goes in: it must exist in the guide and be of the entry's kind. */
export function sectionReference(state: GuideState, sectionId: string, noun: EntryNoun, field: string): SectionRow {
  const section = state.sections.find((s) => s.section_id === sectionId);
  const guide = state.row.developer_id;
  if (!section) throw badRequest(`${field}: style guide ${guide} has no section '${sectionId}'`);
  const wanted = kindOf[noun];
  if (section.kind !== wanted) {
    throw badRequest(
      `${field}: section '${sectionId}' of style guide ${guide} is a ${section.kind} section; ${noun.toLowerCase()}s go in a ${wanted} section`,
    );
  }
  return section;
}

export const entryNotFound = (noun: EntryNoun, developerId: string, styleguideId: string) =>
  notFound(`${noun} with developer ID ${developerId} not found in style guide ${styleguideId}`);

export const entryExists = (noun: EntryNoun, developerId: string, styleguideId: string) =>
  conflict(`${noun} with developer ID ${developerId} already exists in style guide ${styleguideId}`);

/** Each `styleguideId` + `developerId` pair at most once per request. */
export function onceEach(
  elements: readonly { styleguideId: string; developerId?: string }[],
  field: string,
  noun: EntryNoun,
) {
  const seen = new Set<string>();
  elements.forEach(({ styleguideId, developerId }, i) => {
    if (developerId === undefined) return;
    const key = `${styleguideId}\u0000${developerId}`;
    if (seen.has(key)) {
      throw badRequest(
        `${field}[${i}].developerId: ${noun.toLowerCase()} ${developerId} of style guide ${styleguideId} appears more than once in this request`,
      );
    }
    seen.add(key);
  });
}

const ONLY_FOR: Array<[keyof RuleCheck, RuleCheck['type']]> = [
  ['limit', 'character_limit'],
  ['pattern', 'regex'],
  ['flags', 'regex'],
  ['replacement', 'regex'],
];

/** A rule's check, with the fields its type needs and no others; a regex must pass the guard. */
export function validCheck(check: RuleCheck | null, field: string): RuleCheck | null {
  if (check === null) return null;
  for (const [key, type] of ONLY_FOR) {
    if (check[key] !== undefined && check.type !== type) {
      throw badRequest(`${field}.${key} is only allowed with type ${type}`);
    }
  }
  if (check.type === 'character_limit' && check.limit === undefined) {
    throw badRequest(`${field}.limit is required for type character_limit`);
  }
  if (check.type !== 'regex') return check;
  if (check.pattern === undefined) throw badRequest(`${field}.pattern is required for type regex`);
  if (check.message === undefined) throw badRequest(`${field}.message is required for type regex`);
  const flags = check.flags ?? '';
  if (!ALLOWED_FLAGS.test(flags))
    throw badRequest(`${field}.flags: '${flags}' may only hold each of i, m, s and u once`);
  const problem = regexProblem(check.pattern, flags);
  if (problem) throw badRequest(`${field}.pattern: '${check.pattern}' ${problem}`);
  return { ...check, flags };
}
