import { type LegacyText, structuredText } from '../../formats/legacy/index.js';
import { icuMessage } from '../../formats/shared/icu.js';
import type { DocumentHeader, ExportEntry, FormatName } from '../../formats/types.js';
import { fileFormats } from '../exports/exports.service.js';
import type { LegacyFormat } from './legacy.schemas.js';

/**
 * The component and project bodies written page by page (pure): `flat`, `structured` and `full`
 * are JSON objects keyed by developer ID (a project's `full` by block name first), whose members
 * can be written in the order the pages give them, as long as `JSON.stringify` of the whole object
 * would keep that order. See docs/legacy-api.md.
 */

/** The formats a component or project fetch writes page by page. */
export const WRITTEN_FORMATS: ReadonlySet<LegacyFormat> = new Set(['flat', 'structured', 'full']);

/**
 * The formats that are files of the v2 exporters, which a project fetch also writes page by page
 * (`entryWriter`), with the exporter's name. `nested` is not among them: see docs/legacy-api.md.
 */
export const FILE_FORMATS: ReadonlyMap<LegacyFormat, FormatName> = new Map<LegacyFormat, FormatName>([
  ['icu', 'json_icu'],
  ['android', 'android'],
  ['ios-strings', 'ios-strings'],
  ['ios-stringsdict', 'ios-stringsdict'],
]);

/** Whether a body is a JSON object keyed by developer ID, whose order JavaScript could change (`writableKey`). */
export const keyedFormat = (format: LegacyFormat): boolean => WRITTEN_FORMATS.has(format) || format === 'icu';

// An array index (`0` ... `4294967294`) is put first by JavaScript's own key order; an id ending in a
// plural form may meet the `<id>_<form>` key of another text in `flat`, where the later value
// takes the earlier place. A selection holding either is written whole instead. In a project's
// `full`, so is one whose block names repeat (their texts share one entry) or hold an array index.
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,9})$/;
const PLURAL_KEY = /_(?:zero|one|two|few|many|other)$/;

/** Whether a component of this developer ID lets `format` be written member by member. */
export function writableKey(format: LegacyFormat, developerId: string): boolean {
  if (ARRAY_INDEX.test(developerId) && Number(developerId) < 4_294_967_295) return false;
  // A plain object takes `__proto__` as its prototype, not as a key: the whole body leaves it out.
  if (developerId === '__proto__') return false;
  return format !== 'flat' || !PLURAL_KEY.test(developerId);
}

const str = JSON.stringify;

/** The JSON of one text as a member of the body's object (no separator). */
export function memberJson(format: LegacyFormat, text: LegacyText, richText: boolean): string {
  if (format !== 'flat') return `${str(text.id)}:${str(structuredText(text, { richText }))}`;
  let out = `${str(text.id)}:${str(text.text)}`;
  for (const plural of text.plurals) out += `,${str(`${text.id}_${plural.form}`)}:${str(plural.text)}`;
  return out;
}

/** What comes before the members and after them: `full` wraps them in the library's header. */
export function bodyEnds(
  format: LegacyFormat,
  header: { id: string; name: string; exportedAt: string },
): { open: string; close: string } {
  if (format !== 'full') return { open: '{', close: '}' };
  return {
    open: `{"project_id":${str(header.id)},"project_name":${str(header.name)},"exported_at":${str(header.exportedAt)},"components":{`,
    close: '}}',
  };
}

/** Whether a project's `full` body can be written member by member: no block name JavaScript would move or merge. */
export function writableBlocks(format: LegacyFormat, blockNames: readonly string[]): boolean {
  if (format !== 'full') return true;
  return (
    new Set(blockNames).size === blockNames.length &&
    blockNames.every((name) => !(ARRAY_INDEX.test(name) && Number(name) < 4_294_967_295))
  );
}

/**
 * A project's body written text by text, in project order: `flat` and `structured` one object
 * keyed by developer ID, `full` the texts under their block's name (a new entry where the block
 * changes), then `otherText`. `add` answers the JSON to append for a text, `close` the end.
 */
export function projectWriter(
  format: LegacyFormat,
  header: { id: string; name: string; exportedAt: string },
  richText: boolean,
) {
  const full = format === 'full';
  let first = true;
  /** `full`: the name of the block whose entry is open, null once in `otherText`, undefined before any. */
  let block: string | null | undefined;
  const enter = (name: string | null): string => {
    if (name === block) return '';
    if (block === null) throw new Error('a project order put a text of a block after those outside blocks');
    first = true;
    const close = block === undefined ? '' : '}';
    block = name;
    if (name === null) return `${close}},"otherText":{`;
    return `${close}${close === '' ? '' : ','}${str(name)}:{`;
  };
  return {
    open: full
      ? `{"project_id":${str(header.id)},"project_name":${str(header.name)},"exported_at":${str(header.exportedAt)},"blocks":{`
      : '{',
    add(text: LegacyText): string {
      const out = full ? enter(text.block ?? null) : '';
      const member = memberJson(format, text, richText);
      const separator = first ? '' : ',';
      first = false;
      return `${out}${separator}${member}`;
    },
    close(): string {
      return full ? `${enter(null)}}}` : '}';
    },
  };
}

/**
 * A project's body in one of `FILE_FORMATS`, written entry by entry (the entries of the v2 export
 * document, page after page): `add` answers what to append for an entry. `icu` is the JSON object
 * the body built whole gives (the exporter's file parsed and serialized again: compact, each
 * message as `JSON.stringify` writes it); the other formats are the exporter's own file writer,
 * and inside `GET /projects` (`embedded`) the file's text as one JSON string, escaped piece by
 * piece (a piece is whole entries, so no character is cut in two).
 */
export function entryWriter(format: LegacyFormat, header: DocumentHeader, embedded: boolean) {
  const exported = FILE_FORMATS.get(format);
  if (exported === undefined) throw new Error(`${format} is not written entry by entry`);
  if (exported === 'json_icu') {
    let first = true;
    return {
      open: '{',
      add(entry: ExportEntry): string {
        const separator = first ? '' : ',';
        first = false;
        return `${separator}${str(entry.id)}:${str(icuMessage(entry, header, { collectionsAsSelect: true }))}`;
      },
      close: () => '}',
    };
  }
  const writer = fileFormats[exported].writer(header);
  const piece = (text: string) => (embedded ? str(text).slice(1, -1) : text);
  const quote = embedded ? '"' : '';
  return {
    open: `${quote}${piece(writer.head())}`,
    add: (entry: ExportEntry): string => piece(writer.entry(entry)),
    close: () => `${piece(writer.tail())}${quote}`,
  };
}
