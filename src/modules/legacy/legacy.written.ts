import { type LegacyText, structuredText } from '../../formats/legacy/index.js';
import type { LegacyFormat } from './legacy.schemas.js';

/**
 * The component bodies written page by page (pure): `flat`, `structured` and `full` are one JSON
 * object keyed by developer ID, whose members can be written in the order the pages give them, as
 * long as `JSON.stringify` of the whole object would keep that order. See docs/legacy-api.md.
 */

/** The formats a component fetch writes page by page. */
export const WRITTEN_FORMATS: ReadonlySet<LegacyFormat> = new Set(['flat', 'structured', 'full']);

// An array index (`0` ... `4294967294`) is put first by JavaScript's own key order; an id ending in a
// plural form may meet the `<id>_<form>` key of another text in `flat`, where the later value
// takes the earlier place. A selection holding either is written whole instead.
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,9})$/;
const PLURAL_KEY = /_(?:zero|one|two|few|many|other)$/;

/** Whether a component of this developer ID lets `format` be written member by member. */
export function writableKey(format: LegacyFormat, developerId: string): boolean {
  if (ARRAY_INDEX.test(developerId) && Number(developerId) < 4_294_967_295) return false;
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
