import { badRequest } from '../../http/errors.js';
import type { SectionRow } from './styleguides.repository.js';

/**
 * The `sections` list of a guide (pure rules). It is always a full replacement: each `sectionId`
 * once, at least one `rules` and one `wordlist` section. Entries never get lost: the rules of a
 * section that goes away, or stops being a rules section, move to the first remaining rules
 * section, and wordlist entries likewise to the first remaining wordlist section.
 */
import type { SectionInput, SectionKind } from './styleguides.schemas.js';

export type { SectionInput, SectionKind };

export const DEFAULT_SECTIONS: readonly SectionInput[] = [
  { sectionId: 'rules', kind: 'rules', name: 'Rules' },
  { sectionId: 'wordlist', kind: 'wordlist', name: 'Wordlist' },
];

export const defaultSectionName = (kind: SectionKind) => (kind === 'rules' ? 'Rules' : 'Wordlist');

/** `field` prefixes the messages that name an element, as in `styleguides[2].sections`. */
export function checkSections(sections: readonly SectionInput[], field: string): void {
  const seen = new Set<string>();
  sections.forEach((section, index) => {
    if (seen.has(section.sectionId)) {
      throw badRequest(`${field}[${index}].sectionId: '${section.sectionId}' appears more than once`);
    }
    seen.add(section.sectionId);
  });
  // The description names only the wordlist message; when both kinds are missing it comes first.
  if (!sections.some((s) => s.kind === 'wordlist')) throw badRequest('At least one wordlist section is required');
  if (!sections.some((s) => s.kind === 'rules')) throw badRequest('At least one rules section is required');
}

export interface SectionPlan {
  kept: Array<{ row: SectionRow; kind: SectionKind; name: string; position: number }>;
  added: Array<{ section_id: string; kind: SectionKind; name: string; position: number }>;
  removed: SectionRow[];
  /** Per kind: the row ids whose entries of that kind must move, and the sectionId they move to. */
  moves: Record<SectionKind, { from: number[]; to: string }>;
}

export function planSections(existing: readonly SectionRow[], next: readonly SectionInput[]): SectionPlan {
  const current = new Map(existing.map((row) => [row.section_id, row]));
  const plan: SectionPlan = {
    kept: [],
    added: [],
    removed: existing.filter((row) => !next.some((s) => s.sectionId === row.section_id)),
    moves: { rules: { from: [], to: '' }, wordlist: { from: [], to: '' } },
  };
  next.forEach((section, position) => {
    const row = current.get(section.sectionId);
    if (row) plan.kept.push({ row, kind: section.kind, name: section.name ?? row.name, position });
    else {
      const name = section.name ?? defaultSectionName(section.kind);
      plan.added.push({ section_id: section.sectionId, kind: section.kind, name, position });
    }
  });
  for (const kind of ['rules', 'wordlist'] as const) {
    const remaining = plan.kept.find((k) => k.kind === kind);
    plan.moves[kind] = {
      from: existing
        .filter((row) => row.kind === kind && next.find((s) => s.sectionId === row.section_id)?.kind !== kind)
        .map((row) => row.id),
      to: remaining?.row.section_id ?? (next.find((s) => s.kind === kind) as SectionInput).sectionId,
    };
  }
  return plan;
}
