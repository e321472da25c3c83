import type { Api } from '../../helpers/app.js';

/** Small factories for the style guide tests: each test builds its own guides. */

export async function createVariant(api: Api, developerId: string, localeCode: string | null = null) {
  const res = await api.post('variants', { variants: [{ name: developerId, developerId, localeCode }] });
  if (res.status !== 201) throw new Error(`variant: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function createGuide(api: Api, guide: Record<string, unknown>): Promise<string> {
  const res = await api.post('styleguides', { styleguides: [guide] });
  if (res.status !== 201) throw new Error(`guide: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.developerIds[0];
}

/** Rules in the `rules` section of `styleguideId` (the built-in guide unless told). */
export async function addRules(api: Api, rules: Record<string, unknown>[], styleguideId = 'default') {
  const res = await api.post('styleguides/rules', {
    rules: rules.map((r) => ({ styleguideId, sectionId: 'rules', name: 'Rule', ...r })),
  });
  if (res.status !== 201) throw new Error(`rules: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.developerIds as string[];
}

export async function addTerms(api: Api, terms: Record<string, unknown>[], styleguideId = 'default') {
  const res = await api.post('styleguides/terms', {
    terms: terms.map((t) => ({ styleguideId, sectionId: 'wordlist', ...t })),
  });
  if (res.status !== 201) throw new Error(`terms: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.developerIds as string[];
}

export interface Finding {
  kind: string;
  styleguideId: string | null;
  sectionId: string | null;
  ruleId: string | null;
  termId: string | null;
  message: string;
  start: number;
  end: number;
  suggestion: string | null;
}

/** Lints one text and answers its findings. */
export async function lintOne(api: Api, text: string, variantId?: string): Promise<Finding[]> {
  const res = await api.post('styleguides/lint', { texts: [{ text, ...(variantId ? { variantId } : {}) }] });
  if (res.status !== 200) throw new Error(`lint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[0].findings;
}

/** `[matched text, suggestion]` of each finding: the compact form most assertions use. */
export const pairs = (text: string, findings: readonly Finding[]) =>
  findings.map((f) => [text.slice(f.start, f.end), f.suggestion]);
