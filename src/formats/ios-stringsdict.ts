/**
 * ios-stringsdict: an XML property list with the plural forms of the records that have them
 * (rules and choices in docs/formats/ios-stringsdict.md). Apple formats export plain text.
 */
import { appleFormat, stringsdictArguments } from './shared/apple.js';
import { pluralForms } from './shared/plurals.js';
import { variantCommentTexts } from './shared/variant-comments.js';
import { xmlComment, xmlText } from './shared/xml.js';
import type { ExportDocument, ExportedFile, Exporter } from './types.js';

export const iosStringsdict: Exporter = (document: ExportDocument): ExportedFile => {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    ...variantCommentTexts(document).map(xmlComment),
    '<plist version="1.0">',
    '<dict>',
  ];
  for (const entry of document.entries) {
    if (entry.plurals.length === 0) continue;
    const forms = pluralForms(entry, document.locale);
    const args = stringsdictArguments(
      entry,
      forms.map((form) => form.text),
      document.options.variableOrder,
    );
    if (entry.notes !== '') lines.push(`\t${xmlComment(entry.notes)}`);
    // The original's comment lists the arguments' variables; a record without any has none.
    if (args.names.length > 0) lines.push(`\t${xmlComment(`Variables: ${args.names.join(', ')}`)}`);
    lines.push(
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
      lines.push(`\t\t\t<key>${form.form}</key>`, `\t\t\t<string>${xmlText(appleFormat(form.text, args))}</string>`);
    }
    lines.push('\t\t</dict>', '\t</dict>');
  }
  lines.push('</dict>', '</plist>');
  return { body: `${lines.join('\n')}\n`, contentType: 'text/xml; charset=utf-8' };
};
