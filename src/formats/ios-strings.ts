/**
 * ios-strings: a UTF-8 `Localizable.strings` file, `"key" = "value";` per record (rules and
 * choices in docs/formats/ios-strings.md). Plural records carry their primary text only; their
 * forms go to the stringsdict. A variant export starts with the original's two variant comments.
 */
import { appleFormat, stringsArguments } from './shared/apple.js';
import { variantCommentTexts } from './shared/variant-comments.js';
import type { ExportDocument, ExportedFile, Exporter } from './types.js';

export const iosStrings: Exporter = (document: ExportDocument): ExportedFile => {
  const blocks: string[] = [];
  const header = variantComments(document);
  if (header) blocks.push(header);
  for (const entry of document.entries) {
    const value = appleFormat(entry.text, stringsArguments(entry.text, entry, document.options.variableOrder));
    const comment = entry.notes === '' ? '' : `${stringsComment(entry.notes)}\n`;
    blocks.push(`${comment}"${escapeStrings(entry.id)}" = "${escapeStrings(value)}";`);
  }
  return { body: blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`, contentType: 'text/plain; charset=utf-8' };
};

function variantComments(document: ExportDocument): string {
  return variantCommentTexts(document).map(stringsComment).join('\n');
}

/** A `/* *\/` comment; a `*\/` inside the text would end it early, so it is written `*\/`. */
export function stringsComment(text: string): string {
  return `/* ${text.replaceAll('*/', '*\\/')} */`;
}

const STRINGS_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * Escapes text for a quoted string of the CoreFoundation strings grammar. Other C0 controls and
 * DEL have no short escape and are written as `\UXXXX`, so the file stays printable.
 */
export function escapeStrings(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
  return text.replace(/[\\"\u0000-\u001f\u007f]/g, (char) => {
    return STRINGS_ESCAPES[char] ?? `\\U${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  });
}
