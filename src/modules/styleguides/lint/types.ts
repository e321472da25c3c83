/** The lint engine's vocabulary. Everything under `lint/` is pure: data in, findings out. */

export const CHECK_TYPES = [
  'sentence_case',
  'title_case',
  'no_trailing_period',
  'no_exclamation_mark',
  'no_double_spaces',
  'character_limit',
  'regex',
] as const;

export type CheckType = (typeof CHECK_TYPES)[number];

/** A rule's machine check as the API gives it. */
export interface RuleCheck {
  type: CheckType;
  /** character_limit only. */
  limit?: number;
  /** regex only. */
  pattern?: string;
  flags?: string;
  replacement?: string;
  /** The finding's message: required for regex, replaces the built-in message otherwise. */
  message?: string;
}

export interface GuideRule {
  id: string;
  sectionId: string;
  check: RuleCheck | null;
}

export interface GuideTerm {
  id: string;
  sectionId: string;
  preferred: string;
  replaces: string[];
  caseSensitive: boolean;
  note: string;
}

export interface GuideData {
  id: string;
  enabledByDefault: boolean;
  variantId: string | null;
  rules: GuideRule[];
  terms: GuideTerm[];
}

/**
 * A finding before it is attributed to a rule or term. Offsets are UTF-16 code units. A suggestion
 * may be a function, computed only if the finding is answered.
 */
export interface RawFinding {
  start: number;
  end: number;
  message: string;
  suggestion: string | null | (() => string);
}

export type FindingKind = 'rule' | 'term' | 'characterLimit';

export interface Finding extends Omit<RawFinding, 'suggestion'> {
  suggestion: string | null;
  kind: FindingKind;
  styleguideId: string | null;
  sectionId: string | null;
  ruleId: string | null;
  termId: string | null;
}
