import { parse as parseCsv } from 'csv-parse/sync';
import type { PluralForm } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import type { NewComponentInput } from '../components/index.js';
import { isPluralForm, splitPluralRecordId } from '../texts/index.js';
import type { ImportQueryInput } from './legacy.schemas.js';

/**
 * POST /v1/components/file (pure): a CSV with its column mapping, or a JSON file in one of the
 * legacy JSON bodies (flat, nested or structured), as new components. Every component comes
 * with a label (`line 3`, `home.title`) that error messages use in place of `components[i]`.
 */
export interface ImportFile {
  filename: string;
  mimetype: string;
  content: Buffer;
}

export interface ParsedImport {
  components: NewComponentInput[];
  labels: string[];
}

type Kind = 'csv' | 'json';

export function importKind(file: Pick<ImportFile, 'filename' | 'mimetype'>): Kind {
  const name = file.filename.toLowerCase();
  if (name.endsWith('.csv') || file.mimetype === 'text/csv') return 'csv';
  if (name.endsWith('.json') || file.mimetype === 'application/json') return 'json';
  throw badRequest(`import: '${file.filename}' is neither a CSV nor a JSON file (.csv or .json)`);
}

export function parseImport(file: ImportFile, query: ImportQueryInput): ParsedImport {
  return importKind(file) === 'csv' ? parseCsvImport(file.content, query) : parseJsonImport(file.content);
}

/** `3`, `1,2` or `[1,2]`: the column numbers of the name. */
function nameColumns(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [];
  const parts = raw.trim().replace(/^\[/, '').replace(/\]$/, '').split(',');
  return parts.map((part) => {
    const column = Number(part.trim());
    if (!Number.isInteger(column) || column < 1) {
      throw badRequest(`name: '${raw}' is not a list of column numbers (1 for the first column)`);
    }
    return column;
  });
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

function parseCsvImport(content: Buffer, query: ImportQueryInput): ParsedImport {
  if (query.text === undefined) throw badRequest('text: the column of the text is required to import a CSV');
  const names = nameColumns(query.name);
  let records: CsvRecord[];
  try {
    records = parseCsv(content, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true }) as never;
  } catch (error) {
    throw badRequest(`import: not a valid CSV file (${(error as Error).message})`);
  }
  const components: NewComponentInput[] = [];
  const labels: string[] = [];
  // The first row names the columns.
  for (const { record, info } of records.slice(1)) {
    const cell = (column: number | undefined) => (column === undefined ? '' : (record[column - 1] ?? '').trim());
    const label = `line ${info.lines}`;
    const text = column(record, query.text);
    if (text.trim() === '') throw badRequest(`${label}: the text (column ${query.text}) is empty`);
    const component: NewComponentInput = { text };
    const name = names.map(cell).filter(Boolean).join('/');
    if (name) component.name = name;
    if (cell(query.componentId)) component.developerId = cell(query.componentId);
    if (cell(query.notes)) component.notes = column(record, query.notes);
    if (cell(query.status)) component.status = cell(query.status);
    const tags = cell(query.tags)
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean);
    if (tags.length > 0) component.tags = tags;
    components.push(component);
    labels.push(label);
  }
  return { components, labels };
}

/** A cell as written (texts and notes keep their spaces); empty when the row is shorter. */
const column = (record: readonly string[], number: number | undefined) =>
  number === undefined ? '' : (record[number - 1] ?? '');

type Json = unknown;
const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJsonImport(content: Buffer): ParsedImport {
  let json: Json;
  try {
    json = JSON.parse(content.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw badRequest(`import: not a valid JSON file (${(error as Error).message})`);
  }
  if (!isObject(json)) throw badRequest('import: a JSON import must be an object keyed by developer ID');
  const found = new Map<string, NewComponentInput>();
  const flatPlurals: Array<{ id: string; base: string; form: PluralForm; text: string }> = [];
  const walk = (object: Record<string, Json>, prefix: string) => {
    for (const [key, value] of Object.entries(object)) {
      // `__variant-name` and the like are metadata of an export, not texts.
      if (key.startsWith('__')) continue;
      const id = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'string') {
        found.set(id, { developerId: id, text: value });
        const split = splitPluralRecordId(id);
        if (split) flatPlurals.push({ id, ...split, text: value });
      } else if (isObject(value) && typeof value.text === 'string') {
        found.set(id, structuredComponent(id, value));
      } else if (isObject(value)) {
        walk(value, id);
      } else {
        throw badRequest(`${id}: must be a text, an object with a text, or an object of those`);
      }
    }
  };
  walk(json, '');
  // `cart_one` beside `cart` is a plural form of `cart`, as the flat body writes it.
  for (const plural of flatPlurals) {
    const base = found.get(plural.base);
    if (!base) continue;
    base.plurals = [...(base.plurals ?? []), { form: plural.form, text: plural.text }];
    found.delete(plural.id);
  }
  const components = [...found.values()].map((c) => ({
    ...c,
    ...displayFormFirst(c.text, c.plurals, `${c.developerId}.plurals`),
  }));
  return { components, labels: components.map((c) => c.developerId as string) };
}

function structuredComponent(id: string, value: Record<string, Json>): NewComponentInput {
  const component: NewComponentInput = { developerId: id, text: value.text as string };
  const field = (key: string, check: (v: Json) => boolean, what: string) => {
    if (value[key] === undefined) return undefined;
    if (!check(value[key])) throw badRequest(`${id}.${key}: must be ${what}`);
    return value[key];
  };
  const isString = (v: Json) => typeof v === 'string';
  const notes = field('notes', isString, 'a string');
  if (notes !== undefined) component.notes = notes as string;
  const status = field('status', isString, 'a string');
  if (status !== undefined) component.status = status as string;
  const name = field('name', isString, 'a string');
  if (name !== undefined) component.name = name as string;
  const tags = field('tags', (v) => Array.isArray(v) && v.every(isString), 'an array of strings');
  if (tags !== undefined) component.tags = tags as string[];
  const plurals = field('plurals', (v) => isObject(v) && Object.values(v).every(isString), 'an object of texts');
  if (plurals !== undefined) {
    // `<form>_rich_text` entries sit beside the forms; only the forms are texts to import.
    component.plurals = Object.entries(plurals as Record<string, string>)
      .filter(([form]) => isPluralForm(form))
      .map(([form, text]) => ({ form: form as PluralForm, text }));
  }
  return component;
}

/**
 * The first plural form of a text must read as the text itself (the v2 rule): the form whose text
 * equals the text goes first, whatever order the file or body lists them in.
 */
export function displayFormFirst<P extends { text: string }>(
  text: string,
  plurals: readonly P[] | undefined,
  path: string,
): { plurals?: P[] } {
  if (plurals === undefined) return {};
  if (plurals.length === 0) return { plurals: [] };
  const display = plurals.findIndex((p) => p.text === text);
  if (display === -1) throw badRequest(`${path}: one form's text must equal the text`);
  return { plurals: [plurals[display] as P, ...plurals.filter((_, i) => i !== display)] };
}
