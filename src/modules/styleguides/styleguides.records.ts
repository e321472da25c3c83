import type { GuideData, GuideTerm, RuleCheck } from './lint/types.js';
import type { GuideRow, RuleRow, SectionRow, TermRow, WorkspaceGuides } from './styleguides.repository.js';

/** Rows to API records and to the lint engine's input (pure). */

export interface SectionRecord {
  sectionId: string;
  kind: 'rules' | 'wordlist';
  name: string;
}

export interface Example {
  before: string;
  after: string;
}

export interface RuleRecord {
  id: string;
  sectionId: string;
  name: string;
  description: string;
  examples: Example[];
  check: RuleCheck | null;
}

/** A wordlist term is the same in the API and in the lint engine's input. */
export type TermRecord = GuideTerm;

export interface StyleguideRecord {
  id: string;
  name: string;
  description: string;
  enabledByDefault: boolean;
  variantId: string | null;
  sections: SectionRecord[];
  rules: RuleRecord[];
  terms: TermRecord[];
}

/** One guide's rows, as the services look them up. */
export interface GuideState {
  row: GuideRow;
  sections: SectionRow[];
  rules: RuleRow[];
  terms: TermRow[];
}

export function indexGuides(loaded: WorkspaceGuides): Map<string, GuideState> {
  const byRowId = new Map<number, GuideState>();
  for (const row of loaded.guides) byRowId.set(row.id, { row, sections: [], rules: [], terms: [] });
  for (const section of loaded.sections) byRowId.get(section.styleguide_id)?.sections.push(section);
  for (const rule of loaded.rules) byRowId.get(rule.styleguide_id)?.rules.push(rule);
  for (const term of loaded.terms) byRowId.get(term.styleguide_id)?.terms.push(term);
  return new Map([...byRowId.values()].map((state) => [state.row.developer_id, state]));
}

/** The stored form of a check: its type, and the other fields as JSON. */
export function storedCheck(check: RuleCheck | null): { check_kind: string | null; check_config: string | null } {
  if (check === null) return { check_kind: null, check_config: null };
  const { type, ...config } = check;
  return { check_kind: type, check_config: JSON.stringify(config) };
}

function checkOf(rule: RuleRow): RuleCheck | null {
  if (rule.check_kind === null) return null;
  return { type: rule.check_kind, ...JSON.parse(rule.check_config ?? '{}') } as RuleCheck;
}

function sectionIds(state: GuideState): Map<number, string> {
  return new Map(state.sections.map((s) => [s.id, s.section_id]));
}

export function toStyleguideRecord(state: GuideState): StyleguideRecord {
  const { row } = state;
  const sectionOf = sectionIds(state);
  return {
    id: row.developer_id,
    name: row.name,
    description: row.description,
    enabledByDefault: row.enabled_by_default === 1,
    variantId: row.variant_developer_id,
    sections: state.sections.map((s) => ({ sectionId: s.section_id, kind: s.kind, name: s.name })),
    rules: state.rules.map((r) => ({
      id: r.developer_id,
      sectionId: sectionOf.get(r.section_id) ?? '',
      name: r.name,
      description: r.description,
      examples: JSON.parse(r.examples) as Example[],
      check: checkOf(r),
    })),
    terms: state.terms.map((t) => ({
      id: t.developer_id,
      sectionId: sectionOf.get(t.section_id) ?? '',
      preferred: t.preferred,
      replaces: JSON.parse(t.replaces) as string[],
      caseSensitive: t.case_sensitive === 1,
      note: t.note,
    })),
  };
}

export function toGuideData(state: GuideState): GuideData {
  const record = toStyleguideRecord(state);
  return {
    id: record.id,
    enabledByDefault: record.enabledByDefault,
    variantId: record.variantId,
    rules: record.rules.map((r) => ({ id: r.id, sectionId: r.sectionId, check: r.check })),
    terms: record.terms,
  };
}
