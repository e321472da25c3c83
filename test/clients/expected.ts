import {
  BASE_LOCALE,
  COMPONENTS,
  FOLDERS,
  type Forms,
  INSTANCE,
  PROJECT,
  type SeededText,
  TEXT_ITEMS,
  VARIABLES,
  VARIANTS,
} from './workspace.js';

/** What pulled files must hold, computed from the seeded tables alone. */

/** The component library as seeded: the components and the text item published into it. */
export const LIBRARY: SeededText[] = [...COMPONENTS, { ...INSTANCE }];
/** The texts of the project, its library instance included. */
export const PROJECT_TEXTS: SeededText[] = [...TEXT_ITEMS, { ...INSTANCE }];

/** One record as a pulled file should hold it: base (`variant` null) or one variant's value. */
export interface ExpectedRecord {
  id: string;
  text: string;
  plurals?: Forms;
  variables: string[];
  source: SeededText;
}

/** The records of `texts` a fetch with this variant and status returns (a record's own status decides). */
export function expectedRecords(
  texts: readonly SeededText[],
  variant: string | null,
  status?: string,
): ExpectedRecord[] {
  const out: ExpectedRecord[] = [];
  for (const t of texts) {
    const value = variant === null ? { text: t.text, status: t.status, plurals: t.plurals } : t.variants?.[variant];
    if (!value || (status !== undefined && value.status !== status)) continue;
    // A record's variables are the listed ones its own texts use (a variant may use fewer).
    const own = [value.text, ...Object.values(value.plurals ?? {})].join('\n');
    const variables = (t.variables ?? []).filter((name) => own.includes(`{{${name}}}`));
    out.push({ id: t.id, text: value.text, plurals: value.plurals, variables, source: t });
  }
  return out;
}

export const localeOf = (variant: string | null): string =>
  variant === null ? BASE_LOCALE : (VARIANTS.find((v) => v.developerId === variant)?.localeCode ?? BASE_LOCALE);

/** Example values an app passes for each variable. */
export const VALUES: Record<string, string | number> = { name: 'Bo', link: 'our guide', plan: 'Pro', size: 'Small' };

/** `{{name}}` placeholders filled as a consumer renders them. */
export function fill(text: string, values: Record<string, unknown>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

/** The variables a record uses, in the order positional formats pass them (creation order). */
export function positional(variables: readonly string[]): string[] {
  return VARIABLES.map((v) => v.name as string).filter((name) => variables.includes(name));
}

export const FOLDER_NAMES: Record<string, string> = Object.fromEntries(FOLDERS.map((f) => [f.developerId, f.name]));
const SLOTS = [null, ...VARIANTS.map((v) => v.developerId)];
/** The file-name cleaning of the 4.x and legacy clients. */
const cleanName = (name: string) =>
  name
    .replace(/\s+/g, '-')
    .replace(/[^a-zA-Z0-9-_.]/g, '')
    .toLowerCase();

export interface ExpectedFile {
  name: string;
  records: ExpectedRecord[];
  variant: string | null;
  library: boolean;
}

/** The files a 4.x or legacy pull of everything at one status writes: per folder (root included), per project, per variant. */
export function expectedFiles(extension: string, status: string, keep: (records: ExpectedRecord[]) => boolean) {
  const files: ExpectedFile[] = [];
  for (const variant of SLOTS) {
    const slot = variant ?? 'base';
    for (const folder of [...FOLDERS.map((f) => f.developerId), undefined]) {
      const inFolder = LIBRARY.filter((c) => c.folder === folder);
      const name = `components__${cleanName(folder === undefined ? 'Root' : FOLDER_NAMES[folder]!)}__${slot}${extension}`;
      files.push({ name, records: expectedRecords(inFolder, variant, status), variant, library: true });
    }
    const records = expectedRecords(PROJECT_TEXTS, variant, status);
    files.push({ name: `${cleanName(PROJECT.name)}__${slot}${extension}`, records, variant, library: false });
  }
  return files.filter((file) => keep(file.records));
}
