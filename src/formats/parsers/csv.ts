/**
 * csv: a table with a header row, read with csv-parse. The request maps columns to fields: the
 * key, a text and its notes, and one text column per variant, so one file can carry several
 * languages. Texts are stored text (`{{name}}` placeholders); plural forms are `<key>_<form>`
 * rows, as in i18next.
 */
import { parse } from 'csv-parse/sync';
import { formTexts, groupPluralKeys, settlePlurals } from './plurals.js';
import { MalformedFile, type ParsedFile } from './types.js';

export interface CsvMapping {
  key: string;
  text?: string;
  notes?: string;
  /** Target (variant developer ID) -> header of its text column. */
  variants?: Record<string, string>;
}

let linesCache: { content: string; lines: number[] } | null = null;

/** The line each record ends on (the header is record 0), read again with csv-parse's info. */
function recordLines(content: string): number[] {
  if (linesCache?.content !== content) {
    const parsed = parse(content, { bom: true, skip_empty_lines: true, info: true }) as unknown as Array<{
      info: { lines: number };
    }>;
    linesCache = { content, lines: parsed.map(({ info }) => info.lines) };
  }
  return linesCache.lines;
}

/** One parsed file per text column: `target` null is the `text` column. */
export function parseCsv(
  content: string,
  mapping: CsvMapping,
  localeOf: (target: string | null) => string,
): Array<{ target: string | null; file: ParsedFile }> {
  // Only the cells of the columns the mapping names, one list per column: a row's array of
  // cells (csv-parse's record) costs several times its strings, and a file of 200,000 rows held
  // that way took 60 MB.
  let headerRow: string[] | null = null;
  const named = [mapping.key, mapping.text, mapping.notes, ...Object.values(mapping.variants ?? {})];
  /** Column index (in the header) -> its cells, row by row. */
  const kept = new Map<number, string[]>();
  let rows = 0;
  try {
    parse(content, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      on_record: (record: string[]) => {
        if (headerRow === null) {
          headerRow = record;
          // A header named twice is its last column, as a record of the row would have it.
          for (const name of named)
            if (name !== undefined && record.includes(name)) kept.set(record.lastIndexOf(name), []);
        } else {
          for (const [column, cells] of kept) cells.push(record[column] ?? '');
          rows += 1;
        }
        return null;
      },
    });
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    throw new MalformedFile(
      lines === undefined ? 'file' : `line ${lines}`,
      `not valid CSV (${(error as Error).message})`,
    );
  }
  const header: string[] = headerRow ?? [];
  // Line numbers cost a second reading; they are only read when a row needs naming.
  const lineOf = (index: number) => recordLines(content)[index + 1] ?? index + 2;
  // A header named twice is its last column, as a record of the row would have it.
  const at = (name: string) => header.lastIndexOf(name);
  const cell = (row: number, column: number) => (column < 0 ? '' : (kept.get(column)?.[row] ?? ''));
  const headers = new Set(header);
  const column = (name: string, field: string) => {
    if (headerRow !== null && !headers.has(name)) {
      throw new MalformedFile(
        'header',
        `columns.${field}: no column "${name}" (the header has ${[...headers].map((h) => `"${h}"`).join(', ')})`,
      );
    }
    return name;
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
  const keyAt = at(keyColumn);
  const notesAt = notesColumn === null ? -1 : at(notesColumn);
  const seen = new Map<string, number>();
  for (let index = 0; index < rows; index++) {
    const key = cell(index, keyAt);
    if (key === '') throw new MalformedFile(`line ${lineOf(index)}`, `the key column "${keyColumn}" is empty`);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new MalformedFile(`line ${lineOf(index)}`, `key "${key}" repeats line ${lineOf(earlier)}`);
    }
    seen.set(key, index);
  }
  seen.clear();
  return targets.map(({ target, header: name }, targetIndex) => {
    const textAt = at(name);
    // An empty cell is a text not written in that column yet, not an empty text.
    const items: Array<{ key: string; text: string; notes: string | undefined; index: number }> = [];
    for (let index = 0; index < rows; index++) {
      const text = cell(index, textAt);
      if (text === '') continue;
      items.push({ key: cell(index, keyAt), text, notes: notesAt < 0 ? undefined : cell(index, notesAt), index });
    }
    // The last column's items hold all the cells the parse still needs: the lists can go.
    if (targetIndex === targets.length - 1) kept.clear();
    const entries = groupPluralKeys(items).map(({ key, primary, forms }) => {
      const value = settlePlurals(primary?.text ?? null, formTexts(forms), localeOf(target));
      const first = primary ?? [...forms.values()][0]!;
      const notes = notesColumn !== null && target === null ? { notes: first.notes ?? '' } : {};
      return { key, at: `row ${first.index + 2}`, value: { ...value, ...notes } };
    });
    return { target, file: { entries, skipped: [], variantName: null, carriesPlurals: true } };
  });
}
