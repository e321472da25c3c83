/**
 * ios-stringsdict: an XML property list with the plural forms of the records that have them
 * (rules and choices in docs/formats/ios-stringsdict.md). Apple formats export plain text.
 */
import { appleFormat, stringsdictArguments } from './shared/apple.js';
import { pluralForms } from './shared/plurals.js';
import { variantCommentTexts } from './shared/variant-comments.js';
import { xmlComment, xmlText } from './shared/xml.js';
import { type ExportEntry, type FileFormat, wholeFile } from './types.js';

const lines = (list: readonly string[]) => `${list.join('\n')}\n`;

export const iosStringsdictFormat: FileFormat = {
  contentType: 'text/xml; charset=utf-8',
  writer(header) {
    return {
      head: () =>
        lines([
          '<?xml version="1.0" encoding="UTF-8"?>',
          '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
          ...variantCommentTexts(header).map(xmlComment),
          '<plist version="1.0">',
          '<dict>',
        ]),
      entry: pluralEntry,
      tail: () => lines(['</dict>', '</plist>']),
    };

    function pluralEntry(entry: ExportEntry): string {
      if (entry.plurals.length === 0) return '';
      const forms = pluralForms(entry, header.locale);
      const args = stringsdictArguments(
        entry,
        forms.map((form) => form.text),
        header.options.variableOrder,
      );
      const out: string[] = [];
      if (entry.notes !== '') out.push(`\t${xmlComment(entry.notes)}`);
      // The original's comment lists the arguments' variables; a record without any has none.
      if (args.names.length > 0) out.push(`\t${xmlComment(`Variables: ${args.names.join(', ')}`)}`);
      out.push(
        `\t<key>${xmlText(entry.id)}</key>`,
        '\t<dict>',
        '\t\t<key>NSStringLocalizedFormatKey</key>',
        '\t\t<string>%1$#@count@</string>',
        '\t\t<key>count</key>',
        '\t\t<dict>',
        '\t\t\t<key>NSStringFormatSpecTypeKey</key>',
        '\t\t\t<string>NSStringPluralRuleType</string>',
        '\t\t\t<key>NSStringFormatValueTypeKey</key>',
        '\t\t\t<string>lld</string>',
      );
      for (const form of forms) {
        out.push(`\t\t\t<key>${form.form}</key>`, `\t\t\t<string>${xmlText(appleFormat(form.text, args))}</string>`);
      }
      out.push('\t\t</dict>', '\t</dict>');
      return lines(out);
    }
  },
};

export const iosStringsdict = wholeFile(iosStringsdictFormat);
