/**
 * ios-stringsdict: an XML property list with the plural forms of the records that have them
 * (rules and choices in docs/formats/ios-stringsdict.md). Apple formats export plain text.
 */
import { appleArguments, appleFormat } from './shared/apple.js';
import { pluralForms } from './shared/plurals.js';
import { xmlComment, xmlText } from './shared/xml.js';
import type { ExportDocument, ExportedFile, Exporter } from './types.js';

const HEADER = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
  '<plist version="1.0">',
  '<dict>',
];

export const iosStringsdict: Exporter = (document: ExportDocument): ExportedFile => {
  const lines = [...HEADER];
  const variant = document.variant;
  if (variant !== null && !document.options.excludeVariantMetadata) {
    lines.push(`\t${xmlComment(`Variant: ${variant.name}`)}`);
    if (variant.description !== '') lines.push(`\t${xmlComment(`Variant description: ${variant.description}`)}`);
  }
  for (const entry of document.entries) {
    if (entry.plurals.length === 0) continue;
    const args = appleArguments(entry, document.options.variableOrder);
    if (entry.notes !== '') lines.push(`\t${xmlComment(entry.notes)}`);
    lines.push(
      `\t${xmlComment(`Arguments: ${args.labels.join(', ')}`)}`,
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
    for (const form of pluralForms(entry, document.locale)) {
      lines.push(`\t\t\t<key>${form.form}</key>`, `\t\t\t<string>${xmlText(appleFormat(form.text, args))}</string>`);
    }
    lines.push('\t\t</dict>', '\t</dict>');
  }
  lines.push('</dict>', '</plist>');
  return { body: `${lines.join('\n')}\n`, contentType: 'text/xml; charset=utf-8' };
};
