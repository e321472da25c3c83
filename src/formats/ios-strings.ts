/**
 * ios-strings: a UTF-8 `Localizable.strings` file, `"key" = "value";` per record (rules and
 * choices in docs/formats/ios-strings.md). Plural records carry their primary text only; their
 * forms go to the stringsdict. A variant export starts with the original's two variant comments.
 */
import { appleFormat, stringsArguments } from './shared/apple.js';
import { variantCommentTexts } from './shared/variant-comments.js';
import { type FileFormat, wholeFile } from './types.js';

/** Blocks (the variant comments, then one per record) with a blank line between them; nothing at all when empty. */
export const iosStringsFormat: FileFormat = {
  contentType: 'text/plain; charset=utf-8',
  writer(header) {
    let blocks = 0;
    const block = (text: string) => {
      blocks += 1;
      return blocks === 1 ? text : `\n\n${text}`;
    };
    return {
      head() {
        const comments = variantCommentTexts(header).map(stringsComment).join('\n');
        return comments ? block(comments) : '';
      },
      entry(entry) {
        const value = appleFormat(entry.text, stringsArguments(entry.text, entry, header.options.variableOrder));
        const comment = entry.notes === '' ? '' : `${stringsComment(entry.notes)}\n`;
        return block(`${comment}"${escapeStrings(entry.id)}" = "${escapeStrings(value)}";`);
      },
      tail: () => (blocks === 0 ? '' : '\n'),
    };
  },
};

export const iosStrings = wholeFile(iosStringsFormat);

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
