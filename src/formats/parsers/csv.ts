/**
 * csv: a table with a header row, read with csv-parse. The request maps columns to fields: the
 * key, a text and its notes, and one text column per variant, so one file can carry several
 * languages. Texts are stored text (`{{name}}` placeholders); plural forms are `<key>_<form>`
 * rows, as in i18next.
 */
import { parse } from 'csv-parse/sync';
import { groupPluralKeys, settlePlurals } from './plurals.js';
import { MalformedFile, type ParsedFile } from './types.js';

export interface CsvMapping {
  key: string;
  text?: string;
  notes?: string;
  /** Target (variant developer ID) -> header of its text column. */
  variants?: Record<string, string>;
}

interface Row {
  record: Record<string, string>;
  line: number;
}

/** One parsed file per text column: `target` null is the `text` column. */
export function parseCsv(
  content: string,
  mapping: CsvMapping,
  localeOf: (target: string | null) => string,
): Array<{ target: string | null; file: ParsedFile }> {
  let rows: Row[];
  try {
    const parsed = parse(content, { columns: true, bom: true, info: true, skip_empty_lines: true }) as Array<{
      record: Record<string, string>;
      info: { lines: number };
    }>;
    rows = parsed.map(({ record, info }) => ({ record, line: info.lines }));
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    throw new MalformedFile(
      lines === undefined ? 'file' : `line ${lines}`,
      `not valid CSV (${(error as Error).message})`,
    );
  }
  const headers = new Set(Object.keys(rows[0]?.record ?? {}));
  const column = (header: string, field: string) => {
    if (rows.length > 0 && !headers.has(header)) {
      throw new MalformedFile(
        'header',
        `columns.${field}: no column "${header}" (the header has ${[...headers].map((h) => `"${h}"`).join(', ')})`,
      );
    }
    return header;
  };
  const keyColumn = column(mapping.key, 'key');
  const notesColumn = mapping.notes === undefined ? null : column(mapping.notes, 'notes');
  const targets: Array<{ target: string | null; header: string }> = [];
  if (mapping.text !== undefined) targets.push({ target: null, header: column(mapping.text, 'text') });
  for (const [target, header] of Object.entries(mapping.variants ?? {})) {
    targets.push({ target, header: column(header, `variants.${target}`) });
  }
  if (targets.length === 0)
    throw new MalformedFile('columns', 'name a text column (text) or variant columns (variants)');
  const seen = new Map<string, number>();
  for (const { record, line } of rows) {
    const key = record[keyColumn] ?? '';
    if (key === '') throw new MalformedFile(`line ${line}`, `the key column "${keyColumn}" is empty`);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new MalformedFile(`line ${line}`, `key "${key}" repeats line ${earlier}`);
    seen.set(key, line);
  }
  return targets.map(({ target, header }) => {
    // An empty cell is a text not written in that column yet, not an empty text.
    const items = rows
      .filter(({ record }) => (record[header] ?? '') !== '')
      .map(({ record, line }) => ({
        key: record[keyColumn]!,
        text: record[header]!,
        notes: record[notesColumn ?? ''],
        line,
      }));
    const entries = groupPluralKeys(items).map(({ key, primary, forms }) => {
      const texts = new Map([...forms].map(([form, item]) => [form, item.text]));
      const value = settlePlurals(primary?.text ?? null, texts, localeOf(target));
      const first = primary ?? [...forms.values()][0]!;
      const notes = notesColumn !== null && target === null ? { notes: first.notes ?? '' } : {};
      return { key, at: `line ${first.line}`, value: { ...value, ...notes } };
    });
    return { target, file: { entries, skipped: [], variantName: null, carriesPlurals: true } };
  });
}
